/**
 * The recordings of MASSim traffic Protoplay reads: per-connection timelines (`*.timeline.jsonl`, one JSON
 * line per frame or connection event), optionally with each connection's raw byte streams (`*.c2s.bin`,
 * `*.s2c.bin`), which then give every frame's exact bytes.
 */
import type { ImportInput, RecordingFormat } from '../contract';
import { importProblem } from '../../transcript/import';
import { importMassimRecording, looksLikeMassimTimeline } from './timeline-import';

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
    if (timelines > 0 && timelines + streams === inputs.length) return 0.95;
    // Byte streams alone: recognised, so the reader can say what is missing.
    return streams === inputs.length ? 0.5 : 0;
  },
  read: (inputs) => {
    if (!inputs.some(isTimeline))
      return {
        transcripts: [],
        problems: inputs.map((input) => ({
          file: input.name,
          message: `a MASSim byte stream needs its timeline: open it together with ${input.name.replace(streamSuffix, '')}${timelineSuffix}, which says when each frame travelled`,
        })),
      };
    try {
      const files = inputs.map((input) => ({
        name:
          input.name.endsWith(timelineSuffix) || !streamSuffix.test(input.name)
            ? timelineName(input)
            : input.name,
        content: streamSuffix.test(input.name) ? input.bytes : utf8.decode(input.bytes),
      }));
      return { transcripts: [importMassimRecording(files)], problems: [] };
    } catch (error) {
      return { transcripts: [], problems: [importProblem(error, inputs[0]!.name)] };
    }
  },
};

/** A pasted timeline has no file name: the merged timeline's name makes it read as one. */
function timelineName(input: ImportInput): string {
  return input.name.endsWith(timelineSuffix) ? input.name : 'all.timeline.jsonl';
}

/** Every MASSim recording format. */
export const MASSIM_RECORDING_FORMATS: readonly RecordingFormat[] = [massimTimelineFormat];
