/**
 * The GAMA frame log, a recording format of Protoplay's own: a text file with one WebSocket frame per line,
 * in the order they crossed the socket. A line starting with `{` is a frame GAMA sent (its JSON never
 * spans lines); any other line is the API's reply text (`Scav. 3;idle`). Empty lines and lines starting
 * with `#` are comments, except the connection events the writer puts there: `# open`, `# close: why` and
 * `# error: why` (` s2c` after the kind when the API's side did it), read back as events of the episode, so
 * that an episode closed in the log has its total as it had in the session. A `{ "scenario": ... }` line
 * after other frames, or any line after a close, starts a new episode (a new connection). Times are not
 * kept. Replies containing a line break cannot be written in this format.
 */
import type {
  ImportInput,
  ImportOutcome,
  ImportProblem,
  RecordingFormat,
  RecordingStreamReader,
  RecordingStreamSink,
} from '../contract';
import { TRANSCRIPT_FORMAT_VERSION, type Transcript, type TranscriptMessage } from '../../transcript/model';
import {
  CappedLines,
  describeLineLimit,
  MAX_LINE_CHARACTERS,
  type LineLimit,
} from '../../transcript/line-limit';
import { channelOf } from './codec';
import { outlineOfMessage } from './outline';

const FORMAT_ID = 'gama-frame-log';
const SCENARIO_LINE = /^\{\s*"scenario"\s*:/;
const SCAVENGER_LINE = /^\{\s*"id"\s*:/;
const CR = 0x0d;
/** A connection event as the writer comments it: kind, the direction when the API's side did it, detail. */
const EVENT_LINE = /^# (open|close|error)( s2c)?(?:: (.*))?$/;

/** Writes a transcript's frames as a GAMA frame log (connection events become comments). */
export function writeGamaFrameLog(transcript: Transcript): string {
  const lines = [`# ${FORMAT_ID}: one frame per line; '{' lines from GAMA, the others the API's replies`];
  let conn: string | undefined;
  for (const message of transcript.messages) {
    if (message.conn !== conn) {
      conn = message.conn;
      lines.push(`# connection ${conn}`);
    }
    if (message.kind !== 'data') {
      const by = message.dir === 's2c' ? ' s2c' : '';
      lines.push(`# ${message.kind}${by}${message.text ? `: ${message.text.replace(/\s+/g, ' ')}` : ''}`);
      continue;
    }
    lines.push((message.text ?? '').replace(/\r?\n/g, ' '));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Reads a GAMA frame log fed in chunks: each complete line becomes a message as soon as it is read; lines
 * it cannot read are reported with their number, and bytes that are not UTF-8 end the reading there. A
 * line longer than the limit (`MAX_LINE_CHARACTERS`) is reported as soon as it is that long and skipped up
 * to the next line, so a file cut inside a line that never ends is read in bounded memory.
 */
export function streamGamaFrameLog(
  name: string,
  sink: RecordingStreamSink,
  { maxLineCharacters = MAX_LINE_CHARACTERS }: LineLimit = {},
): RecordingStreamReader {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lineNumber = 0;
  let episode = 0;
  let conn = '';
  let framesInEpisode = 0;
  /** Events and frames of the episode so far; a new episode starts when a closed one gets more. */
  let messagesInEpisode = 0;
  let closed = false;
  let index = 0;
  let broken = false;
  const startEpisode = () => {
    conn = `episode ${++episode}`;
    framesInEpisode = 0;
    messagesInEpisode = 0;
    closed = false;
  };
  const readEvent = (event: RegExpExecArray) => {
    const kind = event[1] as 'open' | 'close' | 'error';
    if (messagesInEpisode === 0 || closed || kind === 'open') startEpisode();
    const message: TranscriptMessage = { index: index++, conn, dir: event[2] ? 's2c' : 'c2s', t: 0, kind };
    if (event[3]) message.text = event[3];
    sink.message(message);
    messagesInEpisode++;
    if (kind === 'close') closed = true;
  };
  const tooLong = () =>
    sink.problem({
      file: name,
      line: ++lineNumber,
      message: `a line longer than ${describeLineLimit(maxLineCharacters)} is not a frame; skipped to the next line`,
    });
  const readLine = (line: string) => {
    lineNumber++;
    if (line.startsWith('#')) {
      const event = EVENT_LINE.exec(line);
      if (event) readEvent(event);
      return;
    }
    if (line.trim() === '') return;
    const fromGama = line.startsWith('{');
    if (messagesInEpisode === 0 || closed || (fromGama && SCENARIO_LINE.test(line) && framesInEpisode > 0))
      startEpisode();
    const dir = fromGama ? 'c2s' : 's2c';
    const channel = channelOf(line, dir);
    const message: TranscriptMessage = {
      index: index++,
      conn,
      dir,
      t: 0,
      kind: 'data',
      text: line,
      framing: 'frame',
    };
    if (channel) message.channel = channel;
    // Read through the outlines the machines and the reader share: the frame is read once for all.
    if (fromGama) {
      const reading = outlineOfMessage(message);
      if (!reading.ok)
        sink.problem({ file: name, line: lineNumber, message: `frame from GAMA: ${reading.problem}` });
    } else if (!line.includes(';')) {
      sink.problem({
        file: name,
        line: lineNumber,
        message: `reply without ';' (expected '<id>;<action>')`,
      });
    }
    sink.message(message);
    framesInEpisode++;
    messagesInEpisode++;
  };
  const lines = new CappedLines(
    { line: (line) => readLine(line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line), tooLong },
    { maxLineCharacters },
  );
  const take = (decode: () => string, last: boolean) => {
    if (broken) return;
    let text: string;
    try {
      text = decode();
    } catch {
      broken = true;
      sink.problem({ file: name, line: lineNumber + 1, message: 'not UTF-8 text' });
      return;
    }
    lines.push(text, last);
  };
  return {
    push: (chunk) => take(() => decoder.decode(chunk, { stream: true }), false),
    end() {
      take(() => decoder.decode(), true);
      if (index === 0 && !broken) sink.problem({ file: name, message: 'no frame found' });
    },
  };
}

/** Reads a GAMA frame log into a transcript; lines it cannot read are reported with their number. */
export function readGamaFrameLog(input: ImportInput): ImportOutcome {
  const problems: ImportProblem[] = [];
  const transcript: Transcript = {
    format: 'protoplay-transcript',
    version: TRANSCRIPT_FORMAT_VERSION,
    protocol: 'gama',
    startedAt: 0,
    meta: { source: FORMAT_ID, file: input.name },
    connections: [],
    messages: [],
    annotations: [],
  };
  const reader = streamGamaFrameLog(input.name, {
    message(message) {
      if (transcript.connections.at(-1)?.id !== message.conn)
        transcript.connections.push({ id: message.conn });
      transcript.messages.push(message);
    },
    problem: (problem) => problems.push(problem),
  });
  reader.push(input.bytes);
  reader.end();
  return { transcripts: transcript.messages.length ? [transcript] : [], problems };
}

/** The GAMA frame log as a recording format. */
export const gamaFrameLogFormat: RecordingFormat = {
  id: FORMAT_ID,
  description: 'a GAMA scavenger session, one WebSocket frame per line',
  detect(inputs) {
    if (inputs.length !== 1) return 0;
    const input = inputs[0]!;
    const head = new TextDecoder().decode(input.bytes.subarray(0, 4096));
    const first = head.split(/\r?\n/).find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
    const named = /\.(gamalog|gama\.txt)$/i.test(input.name) ? 0.1 : 0;
    if (head.startsWith(`# ${FORMAT_ID}`)) return 1;
    if (SCENARIO_LINE.test(first)) return 0.8 + named;
    if (SCAVENGER_LINE.test(first)) return 0.6 + named;
    return named;
  },
  stream: streamGamaFrameLog,
  read(inputs) {
    const outcomes = inputs.map(readGamaFrameLog);
    return {
      transcripts: outcomes.flatMap((o) => o.transcripts),
      problems: outcomes.flatMap((o) => o.problems),
      sources: outcomes.flatMap((o, i) => o.transcripts.map(() => [inputs[i]!.name])),
    };
  },
};
