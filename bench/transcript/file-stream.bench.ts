/**
 * `run --transcript FILE` writes every record to FILE as it comes, annotations between the messages (a run
 * killed midway loses none), and rewrites FILE as the exported layout when the session ends. Measured on a
 * session of 100,000 messages with two annotations per turn (a reward and a world state: the kind of record
 * changes at every second record, the most list switches a session makes):
 * - recording and finishing through `TranscriptFileStream`, against the baseline measured in the same run:
 *   the session kept in memory and written once at the end (`writeTranscriptJsonFile`, an export);
 * - the finish alone (FILE read back and copied list by list), in MB/s of the finished file;
 * - reading the file a kill leaves (the lists in turn) in chunks (`inspect`'s streamed reader), against
 *   reading the finished file of the same session.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTranscriptJsonFile } from '../../cli/transcript-file';
import { TranscriptFileStream } from '../../cli/transcript-stream';
import { streamTranscriptJson } from '../../src/core/transcript/json-stream';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { formatNumber, measureRate, printTable } from '../lib';

const TURNS = 50_000;

/** A session's turns: the server's state, the client's action, a reward and the world after it. */
function play(recorder: TranscriptRecorder): void {
  recorder.addConnection('c1', 'session 1');
  for (let turn = 0; turn < TURNS; turn++) {
    const state = `<turn><turn-num>${turn}</turn-num><observed-fluent><fluent-name>running</fluent-name><fluent-arg>c${turn % 10}</fluent-arg><fluent-value>true</fluent-value></observed-fluent><immediate-reward>${(turn % 7) - 3}</immediate-reward></turn>`;
    recorder.text('c1', 's2c', state, 'nul');
    recorder.text(
      'c1',
      'c2s',
      `<actions><action><action-name>reboot</action-name><action-arg>c${turn % 10}</action-arg><action-value>true</action-value></action></actions>`,
      'nul',
    );
    recorder.annotate('reward', { kind: 'step', round: 1, turn, reward: (turn % 7) - 3 });
    recorder.annotate('world', { round: 1, turn, state: { [`running(c${turn % 10})`]: 'true' } });
  }
}

/** A clock for one recorder: every session of the benchmark has the same times. */
function clock(): () => number {
  let t = 1_700_000_000_000;
  return () => (t += 1);
}

/** Reads a file in chunks of 1 MiB with the streamed reader; returns the records read. */
function readInChunks(path: string): number {
  const bytes = readFileSync(path);
  let records = 0;
  const reader = streamTranscriptJson(path, {
    message: () => records++,
    annotation: () => records++,
    problem: () => undefined,
  });
  for (let at = 0; at < bytes.length; at += 1 << 20) reader.push(bytes.subarray(at, at + (1 << 20)));
  reader.end();
  return records;
}

export default async function () {
  const dir = mkdtempSync(join(tmpdir(), 'protoplay-bench-file-stream-'));
  try {
    const streamedPath = join(dir, 'streamed.json');
    const exportedPath = join(dir, 'exported.json');
    const killedPath = join(dir, 'killed.json');
    const messages = TURNS * 2;
    const options = { warmup: 1, repeats: 3 };
    let finishSeconds: number[] = [];
    const streamed = await measureRate(
      'streamed',
      messages,
      () => {
        const stream = new TranscriptFileStream(streamedPath, 'rddlsim', dir);
        const recorder = new TranscriptRecorder({
          protocol: 'rddlsim',
          now: clock(),
          sink: stream,
          keep: false,
        });
        play(recorder);
        const start = performance.now();
        stream.finish(recorder.transcript);
        finishSeconds.push((performance.now() - start) / 1000);
      },
      options,
    );
    finishSeconds = finishSeconds.slice(options.warmup).sort((a, b) => a - b);
    const exported = await measureRate(
      'exported',
      messages,
      () => {
        const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now: clock() });
        play(recorder);
        writeTranscriptJsonFile(exportedPath, recorder.transcript, dir);
      },
      options,
    );
    const finishedBytes = statSync(streamedPath).size;
    const same = readFileSync(streamedPath).equals(readFileSync(exportedPath));
    // The file a kill leaves: everything recorded, not finished.
    const stream = new TranscriptFileStream(killedPath, 'rddlsim', dir);
    play(new TranscriptRecorder({ protocol: 'rddlsim', sink: stream, keep: false }));
    stream.flush();
    const killedBytes = statSync(killedPath).size;
    const records = messages + TURNS * 2;
    const readKilled = await measureRate('killed', killedBytes, () => readInChunks(killedPath), options);
    const readFinished = await measureRate(
      'finished',
      finishedBytes,
      () => readInChunks(streamedPath),
      options,
    );
    if (readInChunks(killedPath) !== records || readInChunks(streamedPath) !== records)
      throw new Error('the streamed reader did not read every record');
    const finish = finishSeconds[Math.floor(finishSeconds.length / 2)]!;
    printTable(
      `run --transcript: ${formatNumber(messages)} messages and ${formatNumber(TURNS * 2)} annotations in turn, ${formatNumber(finishedBytes / 1e6)} MB finished (identical to the export: ${same})`,
      [
        ['way', 'messages/s', 'baseline: kept, exported at the end (messages/s)', 'ratio', 'CPU ratio'],
        [
          'recorded to FILE as it comes, then finished',
          formatNumber(streamed.opsPerSecond),
          formatNumber(exported.opsPerSecond),
          formatNumber(streamed.opsPerSecond / exported.opsPerSecond),
          formatNumber((streamed.cpuSeconds ?? NaN) / (exported.cpuSeconds ?? NaN)),
        ],
      ],
    );
    printTable('Finishing FILE (read back, copied list by list)', [
      ['finish (s)', 'MB/s of the finished file', 'share of the streamed run'],
      [
        formatNumber(finish),
        formatNumber(finishedBytes / 1e6 / finish),
        formatNumber(finish / streamed.seconds),
      ],
    ]);
    printTable('Reading in chunks (inspect --stream): the file a kill leaves against the finished file', [
      ['file', 'MB', 'MB/s', 'ratio to finished', 'CPU per MB, ratio to finished'],
      [
        'left by a kill (lists in turn)',
        formatNumber(killedBytes / 1e6),
        formatNumber(readKilled.opsPerSecond / 1e6),
        formatNumber(readKilled.opsPerSecond / readFinished.opsPerSecond),
        formatNumber(
          (readKilled.cpuSeconds ?? NaN) / killedBytes / ((readFinished.cpuSeconds ?? NaN) / finishedBytes),
        ),
      ],
      [
        'finished',
        formatNumber(finishedBytes / 1e6),
        formatNumber(readFinished.opsPerSecond / 1e6),
        '1',
        '1',
      ],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
