/**
 * How fast a GAMA recording opens, through the session worker's own path run in Node: a file from 4 MiB
 * on is read in chunks (256 KiB, then 1 MiB) by the frame log's streaming reader, validated by both
 * machines and read for its episodes as it comes (`readRecordingInChunks`), while the runner shows the
 * transcript as it grows (`runner.show`, one slice of messages per 16 ms frame); a smaller file is read
 * whole (`readRecording`, then summed up). Measured from handing over the file: the first slice sent
 * to the page, the whole import (the summary resolved: what makes the page say "Opened"), and this
 * process's CPU time meanwhile (barely moved by other work on a loaded machine, unlike the wall time).
 * The frame logs are written by `big-frame-log.ts`; the baseline, in the same run, is a 1,000-message
 * log. The same sessions as Protoplay JSON transcripts (read whole, always) are measured after, to show
 * that path grows linearly too.
 *
 * `GAMA_IMPORT_MESSAGES` (default 100000) sizes the big log; `GAMA_IMPORT_REPEATS` (default 3) repeats
 * each import, the median is printed (the first import of a process includes compiling the code).
 */
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gamaProtocol, readGamaFrameLog } from '../../src/core/protocols/gama';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import type { ImportSummary } from '../../src/core/protocols/session-contract';
import { readRecording, readRecordingInChunks } from '../../src/core/session/open-recording';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import { median, printTable, showingServices } from '../lib';
import { writeBigGamaFrameLog } from './big-frame-log';

const BIG_MESSAGES = Number(process.env.GAMA_IMPORT_MESSAGES ?? 100_000);
const BASELINE_MESSAGES = 1000;
const REPEATS = Number(process.env.GAMA_IMPORT_REPEATS ?? 3);

/** As the session worker opens files: in chunks from this size on, the first chunk smaller. */
const CHUNKED_FROM_BYTES = 4 << 20;
const DETECTION_BYTES = 64 << 10;
const FIRST_CHUNK_BYTES = 256 << 10;
const CHUNK_BYTES = 1 << 20;

/** What one import cost. */
interface ImportFigures {
  firstSliceMs: number;
  wholeMs: number;
  cpuMs: number;
  summary: ImportSummary;
  /** Read in chunks (else whole). */
  chunks: boolean;
}

async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  const file = await open(path);
  try {
    for (let length = FIRST_CHUNK_BYTES; ; length = CHUNK_BYTES) {
      const chunk = new Uint8Array(length);
      const { bytesRead } = await file.read(chunk, 0, length);
      if (bytesRead === 0) return;
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** Opens a file as the session worker does, with the GAMA runner showing it. */
async function openAsTheWorkerDoes(path: string, name: string): Promise<ImportFigures> {
  const runner = await gamaProtocol.playground!.loadRunner();
  const size = (await stat(path)).size;
  let firstSlice: number | undefined;
  let sliceSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (sliceSent = resolve));
  const started = performance.now();
  const cpu = process.cpuUsage();
  const services = showingServices({
    listener: {
      update() {
        firstSlice ??= performance.now() - started;
        sliceSent();
      },
    },
    nextFrame: (callback) => setTimeout(callback, 16),
  });
  let summary: ImportSummary | undefined;
  let session;
  let chunks = false;
  if (size >= CHUNKED_FROM_BYTES) {
    const head = await open(path);
    const start = new Uint8Array(DETECTION_BYTES);
    const { bytesRead } = await head.read(start, 0, DETECTION_BYTES);
    await head.close();
    // Undefined for a format read whole (Protoplay JSON), as in the worker.
    const chunked = await readRecordingInChunks(
      { name, size, start: start.subarray(0, bytesRead), chunks: fileChunks(path) },
      PROTOCOLS,
    );
    if (chunked) {
      chunks = true;
      session = runner.show(
        { transcript: chunked.transcript, origin: 'imported', name, growing: chunked.growing },
        services,
      );
      summary = await chunked.summary;
    }
  }
  if (!session || !summary) {
    const read = readRecording([{ name, bytes: await readFile(path) }], PROTOCOLS);
    session = runner.show({ transcript: read.transcript, origin: 'imported', name }, services);
    await new Promise((resolve) => setTimeout(resolve, 0));
    summary = read.summarise();
  }
  const wholeMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await sent;
  session.abandon();
  return { firstSliceMs: firstSlice!, wholeMs, cpuMs: (used.user + used.system) / 1000, summary, chunks };
}

/** Imports a file `REPEATS` times; the median figures, and the summary (the same every time). */
async function measure(path: string, name: string) {
  const runs: ImportFigures[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await openAsTheWorkerDoes(path, name));
  const summary = runs[0]!.summary;
  if (runs.some((run) => JSON.stringify(run.summary) !== JSON.stringify(summary)))
    throw new Error(`${name}: the imports did not agree`);
  return {
    firstSliceMs: median(runs.map((run) => run.firstSliceMs)),
    wholeMs: median(runs.map((run) => run.wholeMs)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    summary,
    chunks: runs[0]!.chunks,
  };
}

export default async function () {
  const dir = await mkdtemp(join(tmpdir(), 'gama-import-'));
  const rows: (string | number)[][] = [
    [
      'file',
      'messages',
      'MB',
      'path',
      'first slice ms',
      'whole import ms',
      'CPU ms',
      'µs/message (CPU)',
      'x baseline per message',
      'violations',
    ],
  ];
  try {
    let baselinePerMessage = 0;
    for (const [format, messages] of [
      ['frame log', BASELINE_MESSAGES],
      ['frame log', BIG_MESSAGES],
      ['Protoplay JSON', BASELINE_MESSAGES],
      ['Protoplay JSON', BIG_MESSAGES],
    ] as const) {
      const log = join(dir, `gama-${messages}.gamalog`);
      if (format === 'frame log') await writeBigGamaFrameLog(log, messages);
      const path = format === 'frame log' ? log : join(dir, `gama-${messages}.json`);
      if (format === 'Protoplay JSON') {
        const read = readGamaFrameLog({ name: log, bytes: await readFile(log) });
        await writeFile(path, serialiseTranscript(read.transcripts[0]!));
      }
      const size = (await stat(path)).size;
      const figures = await measure(path, path.slice(dir.length + 1));
      if (figures.summary.messages !== messages)
        throw new Error(`${path}: ${figures.summary.messages} messages`);
      const perMessage = (figures.cpuMs * 1000) / messages;
      if (format === 'frame log' && messages === BASELINE_MESSAGES) baselinePerMessage = perMessage;
      rows.push([
        format,
        messages,
        size / 1e6,
        figures.chunks ? 'in chunks' : 'whole',
        figures.firstSliceMs,
        figures.wholeMs,
        figures.cpuMs,
        perMessage,
        `${(perMessage / baselinePerMessage).toFixed(2)}x`,
        figures.summary.violations.length,
      ]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printTable(
    `Opening a GAMA recording in the session worker's path (median of ${REPEATS}; baseline: ${BASELINE_MESSAGES.toLocaleString('en-US')} messages)`,
    rows,
  );
}
