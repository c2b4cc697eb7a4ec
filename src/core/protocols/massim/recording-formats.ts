/**
 * The recordings of MASSim traffic Protoplay reads: per-connection timelines (`*.timeline.jsonl`, one JSON
 * line per frame or connection event), optionally with each connection's raw byte streams (`*.c2s.bin`,
 * `*.s2c.bin`), which then give every frame's exact bytes.
 */
import type { ImportInput, ImportProblem, RecordingFormat } from '../contract';
import { importProblem } from '../../transcript/import';
import { detectMassimReplay, importMassimReplays } from './replay-import';
import { importMassimStreams } from './stream-import';
import { importMassimRecording, looksLikeMassimTimeline } from './timeline-import';
import { streamMassimTimeline } from './timeline-stream';

const timelineSuffix = '.timeline.jsonl';
const streamSuffix = /\.(c2s|s2c)\.bin$/;
const utf8 = new TextDecoder();

function isTimeline(input: ImportInput): boolean {
  return (
    input.name.endsWith(timelineSuffix) ||
    looksLikeMassimTimeline(utf8.decode(input.bytes.subarray(0, 65536)).split('\n', 1)[0] ?? '')
  );
}

/** Timelines with or without their byte streams. */
export const massimTimelineFormat: RecordingFormat = {
  id: 'massim-timeline',
  description: 'a MASSim recording (.timeline.jsonl files, with or without their .bin streams)',
  detect: (inputs) => {
    if (inputs.length === 0) return 0;
    const timelines = inputs.filter(isTimeline).length;
    const streams = inputs.filter((input) => streamSuffix.test(input.name)).length;
    return timelines > 0 && timelines + streams === inputs.length ? 0.95 : 0;
  },
  read: (inputs) => {
    const problems: ImportProblem[] = [];
    try {
      const files = inputs.map((input) => ({
        name: streamSuffix.test(input.name) ? input.name : timelineName(input),
        content: streamSuffix.test(input.name) ? input.bytes : utf8.decode(input.bytes),
      }));
      // A line that is not an entry is reported and skipped; the rest of the timeline is kept. Nothing
      // readable at all is no transcript (the problems say why), not an empty one.
      const transcript = importMassimRecording(files, problems);
      return { transcripts: transcript.messages.length > 0 ? [transcript] : [], problems };
    } catch (error) {
      return { transcripts: [], problems: [...problems, importProblem(error, inputs[0]!.name)] };
    }
  },
  // One timeline file (a connection's, or the merged one) read in chunks, for recordings too big to hold.
  stream: streamMassimTimeline,
};

/** Byte streams alone (`<connection>.c2s.bin`, `<connection>.s2c.bin`): frames in causal order, no times. */
export const massimStreamsFormat: RecordingFormat = {
  id: 'massim-streams',
  description: 'MASSim byte streams of connections (.c2s.bin and .s2c.bin, no timeline)',
  detect: (inputs) => {
    if (inputs.length === 0 || !inputs.every((input) => streamSuffix.test(input.name))) return 0;
    // An agent that never got an answer leaves an empty stream: one frame that reads as MASSim is enough.
    const readable = inputs.filter((input) => /^\{\s*"type"/.test(utf8.decode(input.bytes.subarray(0, 20))));
    return readable.length > 0 ? 0.85 : 0;
  },
  read: (inputs) => {
    const streams = inputs.map((input) => {
      const match = streamSuffix.exec(input.name)!;
      const base = input.name.slice(Math.max(input.name.lastIndexOf('/'), input.name.lastIndexOf('\\')) + 1);
      return { conn: base.replace(streamSuffix, ''), dir: match[1] as 'c2s' | 's2c', bytes: input.bytes };
    });
    const problems = streams.flatMap((stream) =>
      streams.some((other) => other.conn === stream.conn && other.dir !== stream.dir)
        ? []
        : [
            {
              file: inputs[streams.indexOf(stream)]!.name,
              message: `half of the conversation is missing: no ${stream.conn}.${stream.dir === 'c2s' ? 's2c' : 'c2s'}.bin; the transcript holds one side of ${stream.conn} only (a .timeline.jsonl would also give the times)`,
            },
          ],
    );
    try {
      return { transcripts: [importMassimStreams(streams, inputs[0]!.name)], problems };
    } catch (error) {
      return { transcripts: [], problems: [...problems, importProblem(error, inputs[0]!.name)] };
    }
  },
};

/** A pasted timeline has no file name: the merged timeline's name makes it read as one. */
function timelineName(input: ImportInput): string {
  return input.name.endsWith(timelineSuffix) ? input.name : 'all.timeline.jsonl';
}

/**
 * The replay folders the MASSim server writes (`static.json` and step groups `0.json`, `5.json`...): no wire
 * traffic, so the messages are rebuilt from the worlds and marked as such (see `replay-import.ts`).
 */
export const massimReplayFormat: RecordingFormat = {
  id: 'massim-replay',
  description:
    "the MASSim server's replay folder (static.json and step files; messages rebuilt from the worlds)",
  detect: detectMassimReplay,
  read: importMassimReplays,
};

/** Every MASSim recording format. */
export const MASSIM_RECORDING_FORMATS: readonly RecordingFormat[] = [
  massimTimelineFormat,
  massimReplayFormat,
  massimStreamsFormat,
];
