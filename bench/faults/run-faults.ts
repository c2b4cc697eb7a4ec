/**
 * One fault-injection run against one `serve`: starts it as a child, plays a well-behaved session
 * alongside, runs every fault one after another (so each log line belongs to one peer), stops the server
 * and reads its transcripts. Returns what happened; the test asserts on it and the bench prints it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transcript } from '../../src/core/transcript/model';
import {
  conversations,
  readServed,
  startServe,
  until,
  type GoodSession,
  type PeerEnd,
  type ServeTarget,
} from './harness';

/** What one fault did. */
export interface FaultOutcome {
  name: string;
  expect: 'closed' | 'answered' | 'survived';
  end: PeerEnd;
  /** Log lines the server wrote while this peer ran (and until its expected line came). */
  lines: string[];
  /** Lines among them matching the fault's expected log line. */
  matching: number;
  expectedLog: boolean;
  /** Resident memory of the server before and after this fault, KiB. */
  rssBeforeKb: number;
  rssKb: number;
  /** How long the fault took, ms. */
  ms: number;
}

/** The whole run. */
export interface FaultRun {
  protocol: string;
  outcomes: FaultOutcome[];
  good: GoodSession;
  /** Per client conversation: found whole among the server's recorded conversations. */
  goodComplete: boolean[];
  serveCode: number;
  baselineKb: number;
  peakKb: number;
  /** Highest resident memory sampled while faults ran, KiB. */
  sampledPeakKb: number;
  /** The server still answered a new peer after every fault. */
  answersAfter: boolean;
  output: string;
}

/** Runs every fault of `target` against a fresh `serve` child. */
export async function runFaults(target: ServeTarget): Promise<FaultRun> {
  const dir = await mkdtemp(join(tmpdir(), `protoplay-faults-${target.protocol}-`));
  try {
    const serve = await startServe(target.protocol, target.serveArgs(dir), dir);
    let sampledPeakKb = serve.baselineKb;
    const sampler = setInterval(() => (sampledPeakKb = Math.max(sampledPeakKb, serve.rssKb())), 50);
    let faultsDone: () => void = () => undefined;
    const allFaultsRan = new Promise<void>((done) => (faultsDone = done));
    const good = target.good(serve.port, dir, allFaultsRan);
    const outcomes: FaultOutcome[] = [];
    for (const fault of target.faults) {
      const before = serve.output().length;
      const rssBeforeKb = serve.rssKb();
      const started = Date.now();
      const logged = () => fault.log?.test(serve.output().slice(before)) ?? false;
      const end = await fault.run(serve.port, logged);
      // The log line may follow the close by a moment.
      if (fault.log) await until(logged, 10_000);
      else await new Promise((done) => setTimeout(done, 50));
      const lines = serve
        .output()
        .slice(before)
        .split('\n')
        .filter((line) => line.trim() !== '');
      outcomes.push({
        name: fault.name,
        expect: fault.expect,
        end,
        lines,
        matching: fault.log ? lines.filter((line) => fault.log!.test(line)).length : 0,
        expectedLog: fault.log !== undefined,
        rssBeforeKb,
        rssKb: serve.rssKb(),
        ms: Date.now() - started,
      });
    }
    faultsDone();
    const answersAfter = await target.touch(serve.port);
    const session = await good;
    clearInterval(sampler);
    const { code, peakKb } = await serve.stop(target.endsByItself);
    const served: Transcript[] = await readServed(target.served(dir)).catch(() => []);
    const serverSide = served.flatMap((transcript) => [
      ...conversations(transcript, target.groupBy).values(),
    ]);
    const goodComplete: boolean[] = [];
    for (const path of session.transcripts) {
      const client = JSON.parse(await readFile(path, 'utf8')) as Transcript;
      for (const conversation of conversations(client, target.groupBy).values())
        goodComplete.push(
          serverSide.some(
            (group) =>
              group.length === conversation.length && group.every((line, i) => line === conversation[i]),
          ),
        );
    }
    return {
      protocol: target.protocol,
      outcomes,
      good: session,
      goodComplete,
      serveCode: code,
      baselineKb: serve.baselineKb,
      peakKb,
      sampledPeakKb,
      answersAfter,
      output: serve.output(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
