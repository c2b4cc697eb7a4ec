/**
 * `protoplay inspect` on files cut inside a line that never ends (a message of many megabytes, binary
 * garbage without a newline): read in chunks, at most 16 MiB of that line is held, so the peak memory of a
 * 120 MB file is that of a 20 MB one; the line is reported, located, and everything before it kept. The
 * files are a real session as Protoplay's writer lays it out, and a real aisysprojserver recording, each
 * followed by the start of a line that runs to the end of the file.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { loadRecording } from '../../core/protocols/rddlsim/recordings';
import { runChild, runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

/** Prints the process's peak resident memory (KiB) on stderr as it exits. */
const REPORT_PEAK =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>writeSync(2,`\\npeak-rss ${process.resourceUsage().maxRSS}\\n`))';

/** Runs `protoplay ...args` in a child: its exit code, what it printed, and its peak memory in MiB. */
async function runMeasured(args: string[]): Promise<{ code: number; stdout: string; peakMiB: number }> {
  const { code, stdout, stderr } = await runChild(args, { nodeArgs: ['--import', REPORT_PEAK] });
  const peak = /peak-rss (\d+)/.exec(stderr);
  if (!peak) throw new Error(`no peak memory reported: ${stderr}`);
  return { code, stdout, peakMiB: Number(peak[1]) / 1024 };
}

/** Writes `head`, then `x` up to `size` bytes: a line that runs to the end of the file. */
async function writeCut(path: string, head: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(head);
  const piece = Buffer.from('x'.repeat(1 << 20));
  for (let written = Buffer.byteLength(head); written < size; written += piece.length)
    if (!out.write(piece)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

interface Report {
  messages: number;
  errors: { file: string; line: number | null; message: string }[];
}

describe('protoplay inspect on a file cut inside a line that never ends', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-long-line-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Inspects the file cut at 20 MB and at 120 MB: both reports, and how much more memory the bigger took. */
  async function inspectBoth(name: string, head: string) {
    const reports: Report[] = [];
    const peaks: number[] = [];
    for (const size of [20e6, 120e6]) {
      const file = join(dir, `${size}-${name}`);
      await writeCut(file, head, size);
      const result = await runMeasured(['inspect', file, '--json', '--stream']);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as Report;
      // The file's name is the only difference between the two reports.
      reports.push(JSON.parse(result.stdout.replaceAll(file, name)) as Report);
      peaks.push(result.peakMiB);
      expect(report.errors[0]!.file).toBe(file);
      await rm(file);
    }
    expect(reports[1]).toEqual(reports[0]);
    return { report: reports[1]!, growth: peaks[1]! - peaks[0]! };
  }

  it('a Protoplay JSON transcript: keeps the messages before it and says where the file ends, in bounded memory', async () => {
    const text = serialiseTranscript(loadRecording('sysadmin_inst_mdp__1'));
    const start = text.indexOf('{"index":20,');
    const head = `${text.slice(0, start)}{"index":20,"t":0,"conn":"session-1","dir":"s2c","kind":"data","text":"`;
    const { report, growth } = await inspectBoth('cut.json', head);
    expect(report.messages).toBe(20);
    expect(report.errors).toEqual([
      {
        file: 'cut.json',
        line: text.slice(0, start).split('\n').length,
        message:
          'the file ends inside message 20, on a line longer than 16 MiB; kept the header, 20 complete messages and 0 annotations before it',
      },
    ]);
    // 100 MB more of the line take no more memory (before the limit, 370 MiB more).
    expect(growth).toBeLessThan(128);
  });

  it('an aisysprojserver .jsonl recording: keeps every exchange before it and locates it, in bounded memory', async () => {
    const path = sharedPath('conformance/aisysprojserver/transcripts/02-simple-v1-parallel.jsonl');
    const recording = await readFile(path, 'utf8');
    const sound = JSON.parse((await runInProcess(['inspect', path, '--json'])).stdout) as Report;
    expect(sound.messages).toBeGreaterThan(0);
    const lines = recording.endsWith('\n') ? recording : `${recording}\n`;
    const { report, growth } = await inspectBoth('cut.jsonl', `${lines}{"conn": 1, "request": {"body": "`);
    expect(report.messages).toBe(sound.messages);
    expect(report.errors).toEqual([
      {
        file: 'cut.jsonl',
        line: lines.split('\n').length,
        message: 'a line longer than 16 MiB is not an exchange; skipped to the next line',
      },
    ]);
    expect(growth).toBeLessThan(128);
  });
});
