/**
 * The messages read from a MASSim recording share a few object shapes (V8's hidden classes), however many
 * there are: every machine, reader and store reads each message's fields, and reads of objects of a
 * hundred thousand shapes cost far more than reads of objects of one (the timeline's messages, spread from
 * a common part, once each had a shape of their own). Asked of V8 itself, through its natives syntax.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { importMassimRecording } from '../../../../src/core/protocols/massim/timeline-import';
import { streamMassimTimeline } from '../../../../src/core/protocols/massim/timeline-stream';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { recordedRuns, recordingFiles, recordingsRoot } from './recordings';

setFlagsFromString('--allow-natives-syntax');
const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many shapes the messages have. */
function shapes(messages: readonly TranscriptMessage[]): number {
  const seen: TranscriptMessage[] = [];
  for (const message of messages) if (!seen.some((shape) => sameShape(shape, message))) seen.push(message);
  return seen.length;
}

/** The runs recorded with a merged timeline too. */
const merged = recordedRuns.filter((run) => existsSync(join(recordingsRoot, run, 'all.timeline.jsonl')));

function streamed(run: string): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  const stream = streamMassimTimeline('all.timeline.jsonl', {
    message: (message) => messages.push(message),
    problem: () => undefined,
  });
  stream.push(readFileSync(join(recordingsRoot, run, 'all.timeline.jsonl')));
  stream.end();
  return messages;
}

describe('messages of a MASSim recording', () => {
  it('share a shape of each kind, read from the merged timeline in chunks', () => {
    expect(merged.length).toBeGreaterThan(2);
    for (const run of merged) {
      const messages = streamed(run);
      expect(messages.length, run).toBeGreaterThan(20);
      // Frames, and connection events (opened, closed): two shapes, whatever the length.
      expect(shapes(messages), run).toBeLessThanOrEqual(2);
    }
  });

  it('share a shape of each kind, imported from the files of each connection', () => {
    for (const run of recordedRuns) {
      const { messages } = importMassimRecording(recordingFiles(run));
      expect(messages.length, run).toBeGreaterThan(20);
      // Text frames, frames of bytes that are not UTF-8, and connection events.
      expect(shapes(messages), run).toBeLessThanOrEqual(3);
    }
  });
});
