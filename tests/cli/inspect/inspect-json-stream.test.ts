/**
 * `protoplay inspect --stream` on Protoplay JSON transcripts written by `protoplay run rddlsim --transcript`:
 * read line by line in chunks, the report equals the whole-file one (counts, rounds with rewards,
 * violations, the located damage and kept messages of a file cut short). Files not laid out one message per
 * line are read whole.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectInChunks } from '../../../cli/inspect/inspect-stream';
import { runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

const DOMAIN = sharedPath('rddl/ippc2011/sysadmin_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/sysadmin_inst_mdp__1.rddl');

describe('protoplay inspect reads Protoplay JSON in chunks', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-json-'));
    file = join(dir, 'run.json');
    const run = await runInProcess([
      'run',
      'rddlsim',
      '--domain',
      DOMAIN,
      '--instance',
      INSTANCE,
      '--rounds',
      '4',
      '--seed',
      '5',
      '--transcript',
      file,
    ]);
    expect(run.code).toBe(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints the same report read in chunks as read whole for a real run', async () => {
    expect(await inspectInChunks([file], dir, {}, true)).toBeDefined();
    const whole = await runInProcess(['inspect', file, '--json']);
    const streamed = await runInProcess(['inspect', file, '--json', '--stream']);
    expect(whole.code).toBe(0);
    expect(streamed).toEqual(whole);
    const report = JSON.parse(streamed.stdout) as {
      format: string;
      messages: number;
      rounds: { reward: number | null }[];
    };
    expect(report.format).toBe('protoplay-json');
    expect(report.messages).toBeGreaterThan(300);
    expect(report.rounds).toHaveLength(4);
    expect(report.rounds.every((round) => typeof round.reward === 'number')).toBe(true);
  });

  it('keeps the same messages of a file cut short, and says where it ends (exit 1)', async () => {
    const text = await readFile(file, 'utf8');
    const cut = join(dir, 'cut.json');
    await writeFile(cut, text.slice(0, Math.floor(text.length * 0.6)));
    expect(await inspectInChunks([cut], dir, {}, true)).toBeDefined();
    const whole = await runInProcess(['inspect', cut, '--json']);
    const streamed = await runInProcess(['inspect', cut, '--json', '--stream']);
    expect(whole.code).toBe(1);
    expect(streamed).toEqual(whole);
    const report = JSON.parse(streamed.stdout) as { messages: number; errors: { message: string }[] };
    expect(report.messages).toBeGreaterThan(10);
    expect(report.errors[0]!.message).toMatch(
      new RegExp(
        `the file ends inside message [\\d,]+; kept the header, ${report.messages} complete messages`,
      ),
    );
  });

  it('keeps the session before a message of the wrong shape, and says at which line it is (exit 1)', async () => {
    const text = await readFile(file, 'utf8');
    const wrong = text.replace(/("index":7,"t":[\d.]+,"conn":"[^"]+","dir":)"(c2s|s2c)"/, '$1"up"');
    expect(wrong).not.toBe(text);
    await writeFile(join(dir, 'wrong.json'), wrong);
    const line = wrong.split('\n').findIndex((row) => /^ {4}\{"index":7,"t":/.test(row)) + 1;
    expect(line).toBeGreaterThan(1);
    const whole = await runInProcess(['inspect', 'wrong.json'], { cwd: dir });
    const streamed = await runInProcess(['inspect', 'wrong.json', '--stream'], { cwd: dir });
    expect(whole.code).toBe(1);
    expect(streamed).toEqual(whole);
    expect(whole.stdout).toContain('1 session\n');
    expect(whole.stdout).toContain('session 1: 1 connection, 7 messages, ');
    expect(whole.stdout).toMatch(
      new RegExp(
        `wrong\\.json:${line}: messages\\[7\\]\\.dir: expected "c2s" or "s2c", got "up"; kept the header, 7 complete messages and \\d+ annotations? before it\n`,
      ),
    );
  });

  it('reads a transcript on one line whole, as before', async () => {
    const oneLine = join(dir, 'one-line.json');
    await writeFile(oneLine, JSON.stringify(JSON.parse(await readFile(file, 'utf8'))));
    expect(await inspectInChunks([oneLine], dir, {}, true)).toBeUndefined();
    const whole = await runInProcess(['inspect', file, '--json']);
    const streamed = await runInProcess(['inspect', oneLine, '--json', '--stream']);
    expect(streamed.code).toBe(0);
    // The same report, but for the file each session was read from.
    expect(JSON.parse(streamed.stdout)).toEqual({
      ...JSON.parse(whole.stdout),
      sources: [{ session: 1, files: [oneLine] }],
    });
  });
});
