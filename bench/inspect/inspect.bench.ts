/**
 * `protoplay inspect` on big rddlsim streams and Protoplay JSON transcripts of the same session (one sound
 * session of a real recording's rounds, generated in a temporary folder and deleted afterwards): MB/s and peak resident memory of the command run as a child
 * process, reading the file in chunks (what it does from 64 MiB) next to reading it whole (what it did
 * before: the same reading over the whole file's bytes), both measured in the same run. 100 MB
 * by default; `--size 1g` for the full-size file (reading it whole then fails: V8's longest string).
 * A third stream of the same size repeats a real session's round that the server ended early (two
 * non-default actions where one is allowed): every round is explained (`endedEarly`), and its speed is
 * compared with the sound stream's, read in chunks the same way.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { printTable } from '../lib';
import { writeBigRddlsimStream, writeBigTranscriptJson } from './big-recording';

const BIN = resolve(import.meta.dirname, '../../cli/bin/protoplay.js');
/** A size as `100m`, `1g`, `5e6` or `5000000`, in bytes. */
function bytesOf(size: string): number {
  const match = /^([\d.e+]+)\s*([kmg]?)b?$/i.exec(size.trim());
  const value = match ? Number(match[1]) : NaN;
  if (!match || !Number.isFinite(value)) throw new Error(`not a size: '${size}' (say 100m, 1g or 5e6)`);
  return value * { '': 1, k: 1e3, m: 1e6, g: 1e9 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
}

/**
 * File sizes in bytes: `npm run bench -- inspect --size 1g` (several: `--size 100m,1g`), or
 * `BENCH_INSPECT_SIZES`; 100 MB by default (1 GB takes minutes and a GB of disk).
 */
function sizes(): number[] {
  const flag = process.argv.indexOf('--size');
  const list = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_INSPECT_SIZES;
  return (list ?? '100m').split(',').map(bytesOf);
}

/** Prints the process's peak resident memory when it exits. */
const PEAK = `process.on('exit',()=>process.stderr.write('\\npeak-rss-kib '+process.resourceUsage().maxRSS+'\\n'))`;

/**
 * Reading whole, as `inspect` did: the whole file's bytes handed to what `inspect` calls for them (with
 * its round-end reading, as the chunked path has).
 */
const WHOLE = `
import { readFileSync } from 'node:fs';
import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
const { inspectRecordingWithRoundEnds } = await import(${JSON.stringify(resolve(import.meta.dirname, '../../src/core/protocols/inspection.ts'))});
const { PROTOCOLS } = await import(${JSON.stringify(resolve(import.meta.dirname, '../../src/core/protocols/registry.ts'))});
const path = process.argv[2];
const report = await inspectRecordingWithRoundEnds([{ name: path, bytes: new Uint8Array(readFileSync(path)) }], PROTOCOLS);
console.log(report.sessions[0].rounds.length);
`;

interface Run {
  seconds: number;
  peakMiB: number;
  ok: boolean;
  note: string;
  stdout: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((done, failed) => {
    const start = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(PEAK)}`, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) => {
      const peak = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? NaN);
      const error = /(RangeError|Error): [^\n]*/.exec(stderr)?.[0] ?? '';
      done({
        seconds: (performance.now() - start) / 1000,
        peakMiB: peak / 1024,
        // `inspect` exits 0 on a sound session.
        ok: code === 0,
        note: code === 0 ? '' : `exit ${code} ${error.slice(0, 70)}`,
        stdout,
      });
    });
  });
}

export default async function inspectBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-bench-inspect-'));
  try {
    const wholeScript = join(dir, 'whole.mjs');
    await writeFile(wholeScript, WHOLE);
    const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
    // The real server's too_many_actions session: its first round (ended early at the third turn), then
    // the sound session's session-end (same instance), so that the generated session is whole.
    const probe = loadRecording('edge-cases/too_many_actions').messages;
    const endedEarly = [
      ...probe.slice(0, probe.findIndex((m) => m.text?.includes('<round-end>')) + 1),
      recorded.find((m) => m.text?.includes('<session-end>'))!,
    ];
    const rows: (string | number)[][] = [
      ['file', 'path', 'MB/s', 'peak RSS MiB', 'time s', 'vs whole', 'note'],
    ];
    for (const bytes of sizes()) {
      const file = join(dir, `big-${bytes}.log`);
      const { size } = await writeBigRddlsimStream(recorded, file, bytes);
      const mb = size / 1e6;
      const whole = await run([wholeScript, file]);
      const streamed = await run([BIN, 'inspect', file, '--json', '--stream']);
      const label = `${Math.round(mb)} MB`;
      rows.push([
        label,
        'whole',
        whole.ok ? mb / whole.seconds : 0,
        whole.peakMiB,
        whole.seconds,
        '1.00',
        whole.note,
      ]);
      rows.push([
        label,
        'streamed',
        streamed.ok ? mb / streamed.seconds : 0,
        streamed.peakMiB,
        streamed.seconds,
        whole.ok ? (whole.seconds / streamed.seconds).toFixed(2) : 'whole failed',
        streamed.note,
      ]);
      await rm(file);
      // A real session's round the server ended early, repeated to the same size: each round explained.
      const earlyFile = join(dir, `early-${bytes}.log`);
      const early = await writeBigRddlsimStream(endedEarly, earlyFile, bytes);
      const earlyRun = await run([BIN, 'inspect', earlyFile, '--json', '--stream']);
      const earlyMb = early.size / 1e6;
      const explained = earlyRun.ok
        ? (JSON.parse(earlyRun.stdout) as { rounds: { endedEarly?: string }[] }).rounds.filter(
            (round) => round.endedEarly !== undefined,
          ).length
        : 0;
      rows.push([
        `${Math.round(earlyMb)} MB ended early`,
        'streamed',
        earlyRun.ok ? earlyMb / earlyRun.seconds : 0,
        earlyRun.peakMiB,
        earlyRun.seconds,
        // Speed against the sound stream read in chunks (not the whole read).
        streamed.ok && earlyRun.ok
          ? `${(earlyMb / earlyRun.seconds / (mb / streamed.seconds)).toFixed(2)} of streamed`
          : '',
        earlyRun.note || `${explained} of ${early.rounds} rounds explained`,
      ]);
      await rm(earlyFile);
      // The same session as a Protoplay JSON transcript (what `run --transcript` writes), in the same run.
      const json = join(dir, `big-${bytes}.json`);
      const written = writeBigTranscriptJson(recorded, json, bytes);
      const jsonMb = written.size / 1e6;
      const jsonWhole = await run([wholeScript, json]);
      const jsonStreamed = await run([BIN, 'inspect', json, '--json', '--stream']);
      const jsonLabel = `${Math.round(jsonMb)} MB json`;
      rows.push([
        jsonLabel,
        'whole',
        jsonWhole.ok ? jsonMb / jsonWhole.seconds : 0,
        jsonWhole.peakMiB,
        jsonWhole.seconds,
        '1.00',
        jsonWhole.note,
      ]);
      rows.push([
        jsonLabel,
        'streamed',
        jsonStreamed.ok ? jsonMb / jsonStreamed.seconds : 0,
        jsonStreamed.peakMiB,
        jsonStreamed.seconds,
        jsonWhole.ok ? (jsonWhole.seconds / jsonStreamed.seconds).toFixed(2) : 'whole failed',
        jsonStreamed.note,
      ]);
      await rm(json);
    }
    printTable(
      'protoplay inspect on a generated rddlsim stream and Protoplay JSON transcript (child process, speed ratio vs whole)',
      rows,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
