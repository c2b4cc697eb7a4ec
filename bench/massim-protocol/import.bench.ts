/**
 * Opening a big MASSim recording the way the session worker does (`readRecordingInChunks`: the timeline's
 * streaming reader, both roles' machines over every message, the summary's reader), in Node, on a merged
 * timeline of the recorded basic run's steps repeated (bench/inspect/big-massim-timeline.ts), about 100,000
 * messages. In the same run: the streaming reader alone (the floor: reading the lines, no checking), and the
 * whole import with the shared frame memo switched off (every machine and reader parses each frame again,
 * as before it existed), and the import shown in the views as the worker shows it (the MASSim runner's
 * store and reader), the views' reader reading at its frames or sharing the summary's reading
 * (`TranscriptGrowth.share`), and that last way with every server machine stepping through each message on
 * its own (the steps memo off: the views' reader judged the agents' frames again). Wall time grows on a loaded machine; the process's CPU time says what the work
 * cost. `MASSIM_IMPORT_MB` (default 93) sizes the file, `MASSIM_IMPORT_REPEATS` (default 3) the repeats
 * (the median is printed).
 */
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedPath } from '../../tests/cli/shared-folder';
import { clientFrameReadings, serverFrameFacts } from '../../src/core/protocols/massim/codec';
import { massimProtocol } from '../../src/core/protocols/massim/protocol';
import { serverSteps } from '../../src/core/protocols/massim/server-machine';
import { showMassimTranscript } from '../../src/core/protocols/massim/playground/shown-store';
import type { PlaygroundServices, PlaygroundSession } from '../../src/core/protocols/session-contract';
import { readRecordingInChunks } from '../../src/core/session/open-recording';
import { writeBigMassimTimeline } from '../inspect/big-massim-timeline';
import { formatNumber, median, printTable } from '../lib';

const MEGABYTES = Number(process.env.MASSIM_IMPORT_MB ?? 93);
const REPEATS = Number(process.env.MASSIM_IMPORT_REPEATS ?? 3);
const CHUNK = 1 << 20;

async function* chunksOf(path: string): AsyncGenerator<Uint8Array> {
  const file = await open(path);
  try {
    for (;;) {
      const chunk = new Uint8Array(CHUNK);
      const { bytesRead } = await file.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) return;
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** Wall and process CPU milliseconds of `work`, and what it returned. */
async function timed<T>(work: () => Promise<T>): Promise<{ wall: number; cpu: number; result: T }> {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, result };
}

async function readOnly(path: string): Promise<number> {
  let messages = 0;
  const format = massimProtocol.recordingFormats.find((candidate) => candidate.stream)!;
  const stream = format.stream!(path, { message: () => void messages++, problem: () => undefined });
  for await (const chunk of chunksOf(path)) stream.push(chunk);
  stream.end();
  return messages;
}

/**
 * Opens the timeline as the session worker does; with `views`, also shows it as the worker does (the
 * MASSim runner's store and reader, news at frames of 16 ms), its reading shared with the summary or not.
 */
async function importWhole(path: string, size: number, views?: { share: boolean }): Promise<number> {
  const start = new Uint8Array(65536);
  const file = await open(path);
  const { bytesRead } = await file.read(start, 0, start.length, 0);
  await file.close();
  const opened = await readRecordingInChunks(
    { name: 'all.timeline.jsonl', size, start: start.subarray(0, bytesRead), chunks: chunksOf(path) },
    [massimProtocol],
  );
  if (!opened) throw new Error('the timeline was not read in chunks');
  let session: PlaygroundSession | undefined;
  if (views) {
    const growing = views.share
      ? opened.growing
      : {
          get done() {
            return opened.growing.done;
          },
          onGrow: opened.growing.onGrow,
        };
    session = showMassimTranscript(
      { transcript: opened.transcript, origin: 'imported', name: 'all.timeline.jsonl', growing },
      {
        listener: { update: () => undefined },
        nextFrame: (callback: () => void) => void setTimeout(callback, 16),
      } as unknown as PlaygroundServices,
    );
  }
  const summary = await opened.summary;
  session?.abandon();
  if (summary.violations.length > 0 || summary.rounds !== 1) throw new Error('the recording is not sound');
  return summary.messages;
}

export default async function () {
  const dir = await mkdtemp(join(tmpdir(), 'massim-import-'));
  try {
    const path = join(dir, 'all.timeline.jsonl');
    const recorded = await readFile(sharedPath('conformance/massim/basic/all.timeline.jsonl'), 'utf8');
    const { size } = await writeBigMassimTimeline(recorded, path, MEGABYTES * 1e6);
    const capacities = [serverFrameFacts.capacity, clientFrameReadings.capacity] as const;
    const stepCapacity = serverSteps.capacity;
    const withoutMemo = async () => {
      serverFrameFacts.resize(0);
      clientFrameReadings.resize(0);
      try {
        return await importWhole(path, size);
      } finally {
        serverFrameFacts.resize(capacities[0]);
        clientFrameReadings.resize(capacities[1]);
      }
    };
    const stepsApart = async () => {
      serverSteps.resize(0);
      try {
        return await importWhole(path, size, { share: true });
      } finally {
        serverSteps.resize(stepCapacity);
      }
    };
    const ways: [string, () => Promise<number>][] = [
      ['streaming reader alone (baseline)', () => readOnly(path)],
      ['import, frames parsed by each machine and reader', withoutMemo],
      ['import (frames read once)', () => importWhole(path, size)],
      ["import and views, read at the views' frames", () => importWhole(path, size, { share: false })],
      ['import and views, reading shared', () => importWhole(path, size, { share: true })],
      ['import and views, reading shared, each machine stepping', stepsApart],
    ];
    const runs = ways.map(() => [] as { wall: number; cpu: number; result: number }[]);
    // Interleaved, so a change in the machine's load touches every way alike.
    for (let repeat = 0; repeat < REPEATS; repeat++)
      for (const [i, [, work]] of ways.entries()) runs[i]!.push(await timed(work));
    const figures = runs.map((list) => ({
      wall: median(list.map((run) => run.wall)),
      cpu: median(list.map((run) => run.cpu)),
      messages: list[0]!.result,
    }));
    const floor = figures[0]!;
    printTable(
      `Opening a ${formatNumber(size / 1e6)} MB MASSim timeline as the session worker does (median of ${REPEATS})`,
      [
        ['way', 'messages', 'wall ms', 'process CPU ms', 'CPU / baseline', 'MB/s (CPU)'],
        ...figures.map((figure, i) => [
          ways[i]![0],
          formatNumber(figure.messages),
          formatNumber(figure.wall),
          formatNumber(figure.cpu),
          `${(figure.cpu / floor.cpu).toFixed(2)}x`,
          formatNumber(size / 1e3 / figure.cpu),
        ]),
      ],
    );
    const [, before, after, apart, shared, stepping] = figures;
    console.log(
      `frames read once: ${(before!.cpu / after!.cpu).toFixed(2)}x less CPU than parsing them in each machine and reader`,
    );
    console.log(
      `views' reading shared with the summary: ${(apart!.cpu / shared!.cpu).toFixed(2)}x less CPU than a reader of each`,
    );
    console.log(
      `server steps shared: ${(stepping!.cpu / shared!.cpu).toFixed(2)}x less CPU than each machine stepping on its own`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
