/**
 * `protoplay inspect` on several Protoplay JSON transcripts written by `protoplay run`, on transcripts laid
 * out otherwise (a byte order mark, keys sorted), on mistyped `--format` values, and with `--json` when
 * nothing could be read: several files are one session each, whole and in chunks alike; usage errors exit
 * 2; every other outcome with `--json` prints one document.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectInChunks } from '../../../cli/inspect/inspect-stream';
import { runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';
import { sortedKeys } from '../../core/transcript/sorted-keys';

const rddl = (name: string) => sharedPath(`rddl/ippc2011/${name}`);

/** The `--json` document, as docs/cli.md lists its keys. */
interface Report {
  protocol: string;
  format: string;
  confidence: number;
  sessions: number;
  sources: { session: number; files: string[] }[];
  connections: number;
  messages: number;
  rounds: { session: number; round: number; reward: number | null }[];
  violations: unknown[];
  unreadable: unknown[];
  errors: { file: string; line: number | null; message: string }[];
}

/** A text matched as it is in a regular expression. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const DOCUMENT_KEYS = [
  'protocol',
  'format',
  'confidence',
  'sessions',
  'sources',
  'unchecked',
  'connections',
  'messages',
  'rounds',
  'violations',
  'unreadable',
  'errors',
];

describe('protoplay inspect on several files, and its usage and --json outcomes', () => {
  let dir: string;
  /** Two rddlsim runs (different seeds and rounds) and a GAMA run, as `run --transcript` wrote them. */
  let first: string;
  let second: string;
  let gama: string;
  const report = async (...args: string[]) => {
    const result = await runInProcess(['inspect', '--json', ...args]);
    return { code: result.code, stderr: result.stderr, report: JSON.parse(result.stdout) as Report };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-several-'));
    first = join(dir, 'first.json');
    second = join(dir, 'second.json');
    gama = join(dir, 'gama.json');
    const rddlsim = (seed: string, rounds: string, file: string) =>
      runInProcess([
        'run',
        'rddlsim',
        '--domain',
        rddl('sysadmin_mdp.rddl'),
        '--instance',
        rddl('sysadmin_inst_mdp__1.rddl'),
        '--rounds',
        rounds,
        '--seed',
        seed,
        '--transcript',
        file,
      ]);
    for (const run of [
      await rddlsim('1', '2', first),
      await rddlsim('2', '3', second),
      await runInProcess(['run', 'gama', '--scenario', 'A', '--cycles', '5', '--transcript', gama]),
    ])
      expect(run.code).toBe(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads several Protoplay JSON transcripts as one session each, whole and in chunks alike', async () => {
    const alone = [(await report(first)).report, (await report(second)).report];
    const together = await runInProcess(['inspect', first, second, '--json']);
    expect(together.code).toBe(0);
    const both = JSON.parse(together.stdout) as Report;
    expect(both).toMatchObject({
      protocol: 'rddlsim',
      format: 'protoplay-json',
      sessions: 2,
      messages: alone[0]!.messages + alone[1]!.messages,
      violations: [],
      errors: [],
    });
    // Each session's rounds are those of its file read alone.
    expect(both.rounds).toEqual([
      ...alone[0]!.rounds,
      ...alone[1]!.rounds.map((round) => ({ ...round, session: 2 })),
    ]);
    expect(both.rounds.map((round) => round.session)).toEqual([1, 1, 2, 2, 2]);
    // Read in chunks, one session per file: the same report.
    expect(await inspectInChunks([first, second], dir, {}, true)).toBeDefined();
    expect(await runInProcess(['inspect', first, second, '--json', '--stream'])).toEqual(together);
    // A folder of them (a teacher's folder of students' runs), as a folder of other recordings reads.
    const students = join(dir, 'students');
    await mkdir(students);
    await writeFile(join(students, 'alice.json'), await readFile(first));
    await writeFile(join(students, 'bob.json'), await readFile(second));
    const folder = await runInProcess(['inspect', students]);
    expect(folder.code).toBe(0);
    expect(folder.stdout).toMatch(
      /^rddlsim: a Protoplay JSON transcript \(protoplay-json, confidence 100%\)\n2 sessions\n/,
    );
    expect(await runInProcess(['inspect', students, '--stream'])).toEqual(folder);
  });

  it('says which files each session was read from, in the text and in --json, whole and in chunks', async () => {
    // Protoplay JSON transcripts, one session each.
    const together = await runInProcess(['inspect', first, second]);
    expect(together.code).toBe(0);
    const sessionLines = together.stdout.split('\n').filter((line) => line.startsWith('session '));
    expect(sessionLines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^session 1: 1 connection, \\d+ messages, 2 rounds, 0 violations \\(from ${escaped(first)}\\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^session 2: 1 connection, \\d+ messages, 3 rounds, 0 violations \\(from ${escaped(second)}\\)$`,
        ),
      ),
    ]);
    expect(await runInProcess(['inspect', first, second, '--stream'])).toEqual(together);
    for (const stream of [[], ['--stream']])
      expect((await report(first, second, ...stream)).report.sources).toEqual([
        { session: 1, files: [first] },
        { session: 2, files: [second] },
      ]);
    // One file: its session line is as it was, and --json names the file all the same.
    const alone = await runInProcess(['inspect', first]);
    expect(alone.stdout).not.toContain('(from');
    expect((await report(first)).report.sources).toEqual([{ session: 1, files: [first] }]);
    // The two byte streams of one rddlsim connection are one session, read from both.
    const c2s = sharedPath('conformance/rddlsim/sysadmin_inst_mdp__1.c2s.raw');
    const s2c = sharedPath('conformance/rddlsim/sysadmin_inst_mdp__1.s2c.raw');
    const pair = await runInProcess(['inspect', c2s, s2c]);
    expect(pair.stdout).toContain(`0 violations (from ${c2s}, ${s2c})\n`);
    expect((await report(c2s, s2c)).report.sources).toEqual([{ session: 1, files: [c2s, s2c] }]);
    // Record files of rddlsim sessions: each session its own file.
    const records = ['sysadmin_inst_mdp__1', 'elevators_inst_mdp__1'].map((name) =>
      sharedPath(`conformance/rddlsim/${name}.transcript`),
    );
    expect((await report(...records)).report.sources).toEqual([
      { session: 1, files: [records[0]] },
      { session: 2, files: [records[1]] },
    ]);
    // A MASSim replay folder: its static.json and step files, shortened on the session's line.
    const replays = sharedPath('conformance/massim/basic/server-run/replays');
    const replay = await report(replays);
    const [folder] = replay.report.sources;
    expect(folder!.files.length).toBeGreaterThan(3);
    expect(folder!.files).toContain(join(dirname(folder!.files[0]!), 'static.json'));
    expect((await runInProcess(['inspect', replays])).stdout).toContain(
      ` (from ${dirname(folder!.files[0]!)}/: ${folder!.files.length} files)\n`,
    );
  });

  it('refuses transcripts of different protocols together, naming each file and its protocol', async () => {
    const expected = `${first}, ${gama} are of different protocols, which are read apart: rddlsim: ${first}; gama: ${gama}`;
    for (const stream of [[], ['--stream']]) {
      const text = await runInProcess(['inspect', first, gama, ...stream]);
      expect(text).toEqual({ code: 1, stdout: '', stderr: `error: ${expected}\n` });
      const { code, report: json } = await report(first, gama, ...stream);
      expect(code).toBe(1);
      expect(json).toMatchObject({ sessions: 0, messages: 0, rounds: [], violations: [] });
      expect(json.errors).toEqual([
        {
          file: first,
          line: null,
          message:
            "a Protoplay JSON transcript of rddlsim, beside files of gama: read each protocol's files on their own",
        },
        {
          file: gama,
          line: null,
          message:
            "a Protoplay JSON transcript of gama, beside files of rddlsim: read each protocol's files on their own",
        },
      ]);
    }
  });

  it('reads a transcript saved with a byte order mark or with its keys sorted, and when its format is chosen', async () => {
    const text = await readFile(first, 'utf8');
    const { report: plain } = await report(first);
    // Notepad and PowerShell 5 write a byte order mark.
    const bom = join(dir, 'bom.json');
    await writeFile(bom, `\uFEFF${text}`);
    for (const args of [
      [bom],
      [bom, '--stream'],
      [bom, '--format', 'protoplay-json', '--protocol', 'rddlsim'],
    ]) {
      const result = await report(...args);
      expect(result.code).toBe(0);
      expect(result.report).toEqual({ ...plain, sources: [{ session: 1, files: [bom] }] });
    }
    // `jq -S .`: the reward annotations come first, `format` and `protocol` far beyond the first KiB.
    const sortedText = sortedKeys(text);
    expect(sortedText.slice(0, 4096)).not.toContain('"format"');
    const sorted = join(dir, 'sorted.json');
    await writeFile(sorted, sortedText);
    for (const args of [[sorted], [sorted, '--stream'], [sorted, '--format', 'protoplay-json']]) {
      const result = await report(...args);
      expect(result.code).toBe(0);
      // Detected from the fields the start shows and the first annotation: less sure than a named format.
      expect(result.report).toEqual({
        ...plain,
        confidence: 0.9,
        sources: [{ session: 1, files: [sorted] }],
      });
    }
  });

  it('refuses an unknown --format, or one the chosen protocol does not have, as a usage error (exit 2)', async () => {
    const typo = await runInProcess(['inspect', first, '--format', 'har']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^error: unknown format 'har'; one of protoplay-json, rddlsim-record-file, .*aisys-har/,
    );
    const other = await runInProcess(['inspect', first, '--protocol', 'massim', '--format', 'aisys-har']);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      "error: massim has no format 'aisys-har' (it is a format of aisys); one of protoplay-json, massim-timeline, massim-replay, massim-streams\n",
    );
    expect(other.stdout).toBe('');
    // The format of the chosen protocol reads as before.
    expect(
      (await runInProcess(['inspect', first, '--protocol', 'rddlsim', '--format', 'protoplay-json'])).code,
    ).toBe(0);
  });

  it('prints one --json document when nothing could be read: an empty, missing or unknown file', async () => {
    const empty = join(dir, 'empty.json');
    await writeFile(empty, '');
    const noise = join(dir, 'noise.txt');
    await writeFile(noise, 'hello');
    const missing = join(dir, 'missing.json');
    const cases: [string[], Report['errors']][] = [
      [[empty], [{ file: empty, line: null, message: 'the file is empty: there is nothing to read' }]],
      [
        [empty, '--stream'],
        [{ file: empty, line: null, message: 'the file is empty: there is nothing to read' }],
      ],
      [
        [missing, first, join(dir, 'gone.json')],
        [
          { file: missing, line: null, message: 'cannot read the file: ENOENT' },
          { file: join(dir, 'gone.json'), line: null, message: 'cannot read the file: ENOENT' },
        ],
      ],
      [
        [noise],
        [
          {
            file: noise,
            line: null,
            message: expect.stringMatching(/^not a format Protoplay knows: expected Protoplay JSON, /),
          },
        ],
      ],
    ];
    for (const [args, errors] of cases) {
      const result = await runInProcess(['inspect', '--json', ...args]);
      expect(result.code).toBe(1);
      const document = JSON.parse(result.stdout) as Report;
      expect(Object.keys(document)).toEqual(DOCUMENT_KEYS);
      expect(document).toMatchObject({
        sessions: 0,
        messages: 0,
        rounds: [],
        violations: [],
        unreadable: [],
      });
      expect(document.errors).toEqual(errors);
    }
    // As text, the error says so in one line (an empty file is not a list of every format).
    expect(await runInProcess(['inspect', empty])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${empty} is empty: there is nothing to read\n`,
    });
    expect((await runInProcess(['inspect', missing])).stderr).toBe(
      `error: cannot read '${missing}': ENOENT\n`,
    );
  });
});
