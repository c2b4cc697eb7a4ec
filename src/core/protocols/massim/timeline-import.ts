/**
 * Imports MASSim traffic recorded per TCP connection: `<connection>.timeline.jsonl` files, one JSON line per
 * frame or connection event (`{"t": epoch ms, "dir": "c2s" | "s2c" | "event", "text": ...}`; the merged
 * `all.timeline.jsonl` adds `"conn"`), optionally with the raw `<connection>.c2s.bin` / `.s2c.bin` byte
 * streams, which then supply the exact bytes of every frame.
 */
import { ProtoplayError } from '../../errors';
import { decodeWireBytes } from '../../transcript/bytes';
import type { Annotation, Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import type { ImportProblem } from '../contract';

/** One file of a recording, by name (a path is fine: only the base name counts) and content. */
export interface MassimRecordingFile {
  name: string;
  /** Text for `.jsonl` files; bytes for `.bin` files. */
  content: string | Uint8Array;
}

interface TimelineEntry {
  t: number;
  conn: string;
  dir: Direction | 'event';
  text: string;
  /** Position in its file, to keep the recorded order among equal timestamps. */
  order: number;
}

const timelineSuffix = '.timeline.jsonl';
const mergedTimeline = 'all.timeline.jsonl';

/**
 * True when a text looks like a MASSim timeline (JSON lines with `t`, `dir` and `text`), for format
 * detection of pasted or dropped files.
 */
export function looksLikeMassimTimeline(text: string): boolean {
  const firstLine = text.trimStart().split('\n', 1)[0] ?? '';
  try {
    const entry = JSON.parse(firstLine) as Record<string, unknown>;
    return (
      typeof entry.t === 'number' &&
      typeof entry.text === 'string' &&
      ['c2s', 's2c', 'event'].includes(String(entry.dir))
    );
  } catch {
    return false;
  }
}

/**
 * Builds one transcript from the files of a recording. Connections are named after their files
 * (`agentA1.conn1`); frames keep their recorded order, connections are merged by time.
 * Throws a located `ProtoplayError` for a malformed line or a byte stream that disagrees with its timeline.
 */
export function importMassimRecording(
  files: readonly MassimRecordingFile[],
  problems?: ImportProblem[],
): Transcript {
  const own: TimelineEntry[] = [];
  const merged: TimelineEntry[] = [];
  const streams = new Map<string, Uint8Array>();
  for (const file of files) {
    const name = baseName(file.name);
    if (name.endsWith('.bin')) {
      const bytes = typeof file.content === 'string' ? new TextEncoder().encode(file.content) : file.content;
      streams.set(name.slice(0, -'.bin'.length), bytes);
    } else if (name.endsWith(timelineSuffix)) {
      const text = typeof file.content === 'string' ? file.content : new TextDecoder().decode(file.content);
      const order = own.length + merged.length;
      const read = (conn: string | undefined) =>
        readTimeline(text, name, conn, order, problems && { file: file.name, problems });
      if (name === mergedTimeline) merged.push(...read(undefined));
      else own.push(...read(timelineConnection(name)));
    }
  }
  // The merged timeline repeats the per-connection ones: a connection's own file wins.
  const owned = new Set(own.map((entry) => entry.conn));
  const entries = [...own, ...merged.filter((entry) => !owned.has(entry.conn))];
  entries.sort((a, b) => a.t - b.t || a.order - b.order);
  const frames = splitStreams(streams, entries);

  const startedAt = entries[0]?.t ?? 0;
  const transcript: Transcript = {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'massim',
    startedAt,
    meta: { source: 'massim-recording' },
    connections: [],
    messages: [],
    annotations: [],
  };
  const clientClosed = new Set<string>();
  const used = new Map<string, number>();
  for (const entry of entries) {
    if (!transcript.connections.some((c) => c.id === entry.conn))
      transcript.connections.push({ id: entry.conn });
    // Messages written out key by key rather than spread from a common part: objects spread from another
    // each get a shape of their own, and every machine and reader then reads a hundred thousand shapes.
    const index = transcript.messages.length;
    const { conn } = entry;
    const t = entry.t - startedAt;
    if (entry.dir !== 'event') {
      const key = `${conn}.${entry.dir}`;
      const position = used.get(key) ?? 0;
      used.set(key, position + 1);
      const bytes = frames.get(key)?.[position];
      const payload = bytes ? decodeWireBytes(bytes) : { text: entry.text };
      const dir = entry.dir;
      transcript.messages.push(
        'base64' in payload
          ? { index, conn, t, dir, kind: 'data', base64: payload.base64, framing: 'nul' }
          : { index, conn, t, dir, kind: 'data', text: payload.text, framing: 'nul' },
      );
      continue;
    }
    const event = readEvent(entry.text, clientClosed.has(conn));
    if (event.clientCloses) clientClosed.add(conn);
    if (event.message) {
      const { kind, dir } = event.message;
      transcript.messages.push({ index, conn, t, kind, dir, text: entry.text });
    } else transcript.annotations.push(note(transcript.messages.length - 1, entry));
  }
  return transcript;
}

function readTimeline(
  text: string,
  source: string,
  conn: string | undefined,
  offset: number,
  report?: { file: string; problems: ImportProblem[] },
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const lines = text.split('\n');
  lines.forEach((line, lineIndex) => {
    try {
      const entry = parseTimelineLine(line, source, lineIndex + 1, conn);
      if (entry) entries.push({ ...entry, order: offset + entries.length });
    } catch (error) {
      if (!report || !(error instanceof ProtoplayError)) throw error;
      // The same words as the chunked reader (timeline-stream.ts) for a last line without its newline.
      const cut = lineIndex === lines.length - 1;
      report.problems.push({
        file: report.file,
        line: lineIndex + 1,
        message: cut ? 'the file ends in the middle of a line: the last entry is cut off' : error.message,
      });
    }
  });
  return entries;
}

/**
 * One line of a timeline (undefined for a blank one); `conn` is the connection a per-connection file is
 * named after, absent for the merged timeline, whose lines name theirs. Throws a located `ProtoplayError`.
 */
export function parseTimelineLine(
  line: string,
  source: string,
  lineNumber: number,
  conn: string | undefined,
): Omit<TimelineEntry, 'order'> | undefined {
  const written = readWrittenLine(line, conn);
  if (written) return written;
  if (line.trim() === '') return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new ProtoplayError('massim.import.line', 'Not a JSON line.', {
      source,
      line: lineNumber,
      column: 1,
    });
  }
  // A merged timeline's lines name their connection; a connection's own file is named after it.
  const connection = typeof json?.conn === 'string' ? json.conn : conn;
  if (
    typeof json !== 'object' ||
    json === null ||
    typeof json.t !== 'number' ||
    typeof json.text !== 'string' ||
    typeof connection !== 'string' ||
    !['c2s', 's2c', 'event'].includes(String(json.dir))
  ) {
    throw new ProtoplayError(
      'massim.import.line',
      'Expected {"t": <ms>, "dir": "c2s" | "s2c" | "event", "text": <string>}' + (conn ? '' : ' with "conn"'),
      { source, line: lineNumber, column: 1 },
    );
  }
  return { t: json.t, conn: connection, dir: json.dir as TimelineEntry['dir'], text: json.text };
}

/**
 * The head of a line as recorders write it: compact, keys in the order `t`, `conn` (merged timeline only),
 * `dir`, `text`, and an integer time.
 */
const writtenHead = /^\{"t":(0|[1-9][0-9]{0,15}),(?:"conn":"([\w.:@+-]*)",)?"dir":"(c2s|s2c|event)","text":/;

/**
 * A line as recorders write it (connection names of letters, digits and `.:@+-`), read without parsing the whole line (a percept's text is kilobytes of
 * escaped JSON, and the line's own object is thrown away): its head by pattern, then only the text's string
 * literal parsed. Undefined for any other line, which `parseTimelineLine` then reads whole; for a line read
 * here, parsing it whole gives the same entry.
 */
function readWrittenLine(line: string, conn: string | undefined): Omit<TimelineEntry, 'order'> | undefined {
  if (line.charCodeAt(line.length - 1) !== 125 /* } */) return undefined;
  const head = writtenHead.exec(line);
  const connection = head?.[2] ?? conn;
  if (!head || connection === undefined) return undefined;
  let text: unknown;
  try {
    text = JSON.parse(line.slice(head[0].length, -1));
  } catch {
    return undefined; // more keys after the text, or not JSON at all: the whole line says which
  }
  if (typeof text !== 'string') return undefined;
  return { t: Number(head[1]), conn: connection, dir: head[3] as TimelineEntry['dir'], text };
}

/** The connection a timeline file is of: its name without `.timeline.jsonl`; none for the merged one. */
export function timelineConnection(name: string): string | undefined {
  const base = baseName(name);
  return base === mergedTimeline || !base.endsWith(timelineSuffix)
    ? undefined
    : base.slice(0, -timelineSuffix.length);
}

/**
 * Cuts every `.bin` stream into its frames, keyed `<connection>.<dir>`, and checks that each stream has as
 * many frames as its timeline.
 */
function splitStreams(
  streams: ReadonlyMap<string, Uint8Array>,
  entries: readonly TimelineEntry[],
): Map<string, Uint8Array[]> {
  const frames = new Map<string, Uint8Array[]>();
  for (const [key, bytes] of streams) {
    const list: Uint8Array[] = [];
    let start = 0;
    for (let end = bytes.indexOf(0); end >= 0; end = bytes.indexOf(0, start)) {
      list.push(bytes.subarray(start, end));
      start = end + 1;
    }
    const inTimeline = entries.filter((entry) => `${entry.conn}.${entry.dir}` === key).length;
    if (inTimeline !== list.length) {
      throw new ProtoplayError(
        'massim.import.mismatch',
        `${key}.bin holds ${list.length} frames but the timeline lists ${inTimeline}.`,
        { source: `${key}.bin`, line: 1, column: 1 },
      );
    }
    frames.set(key, list);
  }
  return frames;
}

/** Connection events of the recorder: which become transcript events, which stay notes. */
export function readEvent(
  text: string,
  closedByClient: boolean,
): { message?: Pick<TranscriptMessage, 'kind' | 'dir'>; clientCloses?: boolean } {
  if (text.startsWith('connected')) return { message: { kind: 'open', dir: 'c2s' } };
  if (text === 'connection closed')
    return { message: { kind: 'close', dir: closedByClient ? 'c2s' : 's2c' } };
  if (text.startsWith('socket error')) return { message: { kind: 'error', dir: 's2c' } };
  return { clientCloses: /client (destroys|closes)/.test(text) };
}

function note(index: number, entry: TimelineEntry): Annotation {
  return { index: Math.max(0, index), type: 'note', data: { conn: entry.conn, text: entry.text } };
}

function baseName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}
