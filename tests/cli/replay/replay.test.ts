/**
 * `protoplay replay`: recordings played again against the emulated server from the command line, over the
 * real servers' recordings in the shared folder and recordings made here, with the exit codes scripts
 * branch on.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { recordWithReconnections } from '../../core/protocols/massim/reconnections';
import { runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

const rddlsim = (name: string) => sharedPath(`conformance/rddlsim/${name}`);
const massim = (name: string) => sharedPath(`conformance/massim/${name}`);

interface ReplayJson {
  protocol: string;
  format: string;
  sessions: {
    session: number;
    compared?: number;
    differing?: number;
    first?: {
      index: number | null;
      conn: string;
      path: string;
      recorded: string | null;
      emulated: string | null;
    } | null;
    error?: string;
    choices?: { id: string }[];
    notes?: string[];
  }[];
  compared: number;
  differing: number;
  errors: { file: string; line: number | null; message: string }[];
}

describe('protoplay replay', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-replay-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reproduces the real rddlsim server's session: every server message compared, none differ, exit 0", async () => {
    const result = await runInProcess(['replay', rddlsim('sysadmin_inst_mdp__1.transcript'), '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ReplayJson;
    const recorded = (await readFile(rddlsim('sysadmin_inst_mdp__1.s2c.raw'), 'latin1')).split('\0');
    const serverMessages = recorded.filter((text) => text.trim() !== '').length;
    expect(report).toMatchObject({ protocol: 'rddlsim', differing: 0, compared: serverMessages, errors: [] });
    expect(report.sessions).toEqual([
      expect.objectContaining({ session: 1, compared: serverMessages, differing: 0, first: null }),
    ]);
  });

  it('reads the two raw streams of one connection together and says so in text', async () => {
    const result = await runInProcess([
      'replay',
      rddlsim('game_of_life_inst_mdp__1.c2s.raw'),
      rddlsim('game_of_life_inst_mdp__1.s2c.raw'),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^rddlsim: /);
    expect(result.stdout).toMatch(/session 1: game_of_life_inst_mdp__1, \d+ rounds \(as recorded\)/);
    expect(result.stdout).toMatch(/no difference in [\d,]+ messages/);
  });

  it('finds a reward changed in the recording: message index, connection, both values, exit 1', async () => {
    const text = await readFile(rddlsim('sysadmin_inst_mdp__1.s2c.raw'), 'latin1');
    const frames = text.split('\0');
    const at = frames.findIndex((frame, i) => i > 40 && /<immediate-reward>[^<]+</.test(frame));
    const original = /<immediate-reward>([^<]+)</.exec(frames[at]!)![1]!;
    frames[at] = frames[at]!.replace(
      /<immediate-reward>[^<]+</,
      `<immediate-reward>${Number(original) + 5}<`,
    );
    await writeFile(join(dir, 'changed.s2c.raw'), frames.join('\0'), 'latin1');
    await writeFile(join(dir, 'changed.c2s.raw'), await readFile(rddlsim('sysadmin_inst_mdp__1.c2s.raw')));
    const files = [join(dir, 'changed.c2s.raw'), join(dir, 'changed.s2c.raw')];

    const json = await runInProcess(['replay', ...files, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as ReplayJson;
    const first = report.sessions[0]!.first!;
    expect(first.path).toBe('turn/immediate-reward');
    expect(first.recorded).toBe(String(Number(original) + 5));
    expect(first.emulated).toBe(original);
    expect(report.differing).toBe(1);

    const inspected = JSON.parse((await runInProcess(['inspect', ...files, '--json'])).stdout) as {
      messages: number;
    };
    expect(first.index).toBeGreaterThan(0);
    expect(first.index).toBeLessThan(inspected.messages);

    const text2 = await runInProcess(['replay', ...files]);
    expect(text2.code).toBe(1);
    expect(text2.stdout).toContain(
      `first difference at message ${first.index} (${first.conn}, turn/immediate-reward, s2c)`,
    );
    expect(text2.stdout).toContain(`recorded: ${Number(original) + 5}\n`);
    expect(text2.stdout).toContain(`emulator: ${original}\n`);
  });

  it("reproduces the real MASSim server's events run given its configuration file", async () => {
    const result = await runInProcess([
      'replay',
      massim('events/all.timeline.jsonl'),
      '--config',
      massim('conf/events.json'),
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ReplayJson;
    expect(report).toMatchObject({ protocol: 'massim', differing: 0 });
    expect(report.compared).toBeGreaterThan(20);
  });

  it('asks for an environment where the recording names none: lists the choices, exit 1', async () => {
    const result = await runInProcess(['replay', massim('basic/all.timeline.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/session 1: not replayed: .*--environment ID or --config FILE/);
    expect(result.stdout).toMatch(/--environment shaped-massim +A match like the recording's/);
    const chosen = await runInProcess([
      'replay',
      massim('basic/all.timeline.jsonl'),
      '--environment',
      'shaped-massim',
      '--seed',
      '17',
      '--json',
    ]);
    // The grid is not on the wire: a shaped match differs in its first percept, located.
    expect(chosen.code).toBe(1);
    const report = JSON.parse(chosen.stdout) as ReplayJson;
    expect(report.sessions[0]!.first).toMatchObject({
      path: expect.stringMatching(/^\$\.content\.percept\./) as unknown,
    });
  });

  it('replays a recording with agents that leave, come back and join late: no difference', async () => {
    const file = join(dir, 'reconnections.json');
    const transcript = await recordWithReconnections();
    await writeFile(file, serialiseTranscript(transcript));
    const result = await runInProcess(['replay', file, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ReplayJson;
    const serverFrames = transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length;
    expect(report).toMatchObject({ protocol: 'massim', compared: serverFrames, differing: 0 });
    expect(report.sessions[0]!.notes!.join(' ')).toContain('connected during the match');
  });

  it('usage errors exit 2: no file, a seed that is no number, an unknown environment, a missing config', async () => {
    expect((await runInProcess(['replay'])).code).toBe(2);
    const seed = await runInProcess(['replay', rddlsim('sysadmin_inst_mdp__1.transcript'), '--seed', 'x']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain("--seed wants a whole number, not 'x'");
    const unknown = await runInProcess([
      'replay',
      massim('basic/all.timeline.jsonl'),
      '--environment',
      'nope',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown environment 'nope'; one of shaped-massim/);
    const config = await runInProcess([
      'replay',
      massim('basic/all.timeline.jsonl'),
      '--config',
      join(dir, 'missing.json'),
    ]);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('cannot read --config');
  });

  it('refuses an unknown --format, or one the chosen protocol does not have, as a usage error (exit 2)', async () => {
    const file = rddlsim('sysadmin_inst_mdp__1.transcript');
    const typo = await runInProcess(['replay', file, '--format', 'har']);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(
      /^error: unknown format 'har'; one of protoplay-json, rddlsim-record-file, .*massim-timeline, .*aisys-har, gama-frame-log\n$/,
    );
    const other = await runInProcess([
      'replay',
      file,
      '--protocol',
      'massim',
      '--format',
      'rddlsim-record-file',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      "error: massim has no format 'rddlsim-record-file' (it is a format of rddlsim); one of protoplay-json, massim-timeline, massim-replay, massim-streams\n",
    );
    // A format the chosen protocol has reads as before.
    const chosen = await runInProcess([
      'replay',
      file,
      '--protocol',
      'rddlsim',
      '--format',
      'rddlsim-record-file',
    ]);
    expect(chosen.code).toBe(0);
  });

  it('keeps what it read of a file cut off mid-line, names the damage, exit 1', async () => {
    const text = await readFile(rddlsim('sysadmin_inst_mdp__1.transcript'), 'latin1');
    const cut = join(dir, 'cut.transcript');
    await writeFile(cut, text.slice(0, Math.floor(text.length / 2)), 'latin1');
    const result = await runInProcess(['replay', cut, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as ReplayJson;
    expect(report.compared).toBeGreaterThan(0);
    expect(report.sessions[0]!.first).not.toBeNull();
  });

  it('stops when interrupted (Ctrl-C): exit 130', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runInProcess(['replay', rddlsim('sysadmin_inst_mdp__1.transcript')], {
      signal: controller.signal,
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('replay interrupted');
  });
});
