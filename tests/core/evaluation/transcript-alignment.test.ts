/**
 * Lining up two transcripts of one seed for the side-by-side view: the generic merge, stepping from
 * difference to difference, and real episodes of every protocol shape recorded by their episode players
 * (rddlsim's one connection with rounds and turns, MASSim's connection per agent with steps, aisys's HTTP
 * exchanges without turns, GAMA's scavengers on one WebSocket where the policy answers as the server).
 */
import { describe, expect, it } from 'vitest';
import {
  alignTranscripts,
  mergeByKey,
  nextDifference,
  type AlignmentSide,
  type TranscriptAlignment,
} from '../../../src/core/evaluation/transcript-alignment';
import { quickMassimConfig } from '../../../src/core/envs/massim/index';
import { PolicyRuntime } from '../../../src/core/policy/runtime';
import { createAisysEpisodePlayer } from '../../../src/core/protocols/aisys/evaluation';
import { AISYS_SAMPLES } from '../../../src/core/protocols/aisys/samples';
import type {
  EpisodeOutcome,
  EpisodePlayer,
  EpisodePolicy,
} from '../../../src/core/protocols/evaluation-contract';
import { createGamaEpisodePlayer } from '../../../src/core/protocols/gama/evaluation';
import { GAMA_SAMPLES } from '../../../src/core/protocols/gama/samples';
import { createMassimEpisodePlayer } from '../../../src/core/protocols/massim/evaluation';
import { createRddlsimEpisodePlayer } from '../../../src/core/protocols/rddlsim/evaluation';
import { findProtocol } from '../../../src/core/protocols/registry';
import type { Transcript } from '../../../src/core/transcript/model';

/** The policy as an evaluation thread hands it to a player (without the thread's clock). */
function episodePolicy(player: EpisodePlayer, code: string, seed: number): EpisodePolicy {
  const runtime = player.policyRuntime?.() ?? new PolicyRuntime();
  return {
    load: (context) =>
      Promise.resolve(
        runtime.load({ code, language: 'ts', level: 'policy', fileName: 'policy.ts', seed, context }),
      ),
    call: (hook, args) => runtime.call(hook, args, {}),
  };
}

/** One recorded episode of `code` on `seed`. */
async function recorded(
  player: EpisodePlayer,
  settings: unknown,
  code: string,
  seed: number,
  rounds: number,
): Promise<EpisodeOutcome> {
  player.prepare(settings);
  const outcome = await player.play(
    { settings, seed, rounds, trace: false, record: true },
    episodePolicy(player, code, seed),
  );
  expect(outcome.fault).toBeUndefined();
  expect(outcome.error).toBeUndefined();
  return outcome;
}

/** A transcript as the side-by-side view reads it: through its protocol's reader. */
function side(transcript: Transcript): AlignmentSide {
  const reader = findProtocol(transcript.protocol)!.createReader();
  reader.append(transcript.messages, transcript.annotations);
  return { summaries: reader.messages, messages: transcript.messages };
}

/** Every message of both sides is on exactly one row, in its transcript's order. */
function expectEveryMessageOnce(alignment: TranscriptAlignment, a: AlignmentSide, b: AlignmentSide): void {
  const as = alignment.rows.flatMap((row) => (row.a === undefined ? [] : [row.a]));
  const bs = alignment.rows.flatMap((row) => (row.b === undefined ? [] : [row.b]));
  expect(as).toEqual(a.summaries.map((_, i) => i));
  expect(bs).toEqual(b.summaries.map((_, i) => i));
}

/** Rows holding both sides hold messages of the same place, connection, agent and direction. */
function expectRowsAtTheSamePlace(alignment: TranscriptAlignment, a: AlignmentSide, b: AlignmentSide): void {
  let both = 0;
  for (const row of alignment.rows) {
    if (row.a === undefined || row.b === undefined) continue;
    both++;
    const x = a.summaries[row.a]!;
    const y = b.summaries[row.b]!;
    expect([y.round, y.turn, y.conn, y.channel, y.dir]).toEqual([x.round, x.turn, x.conn, x.channel, x.dir]);
  }
  expect(both).toBeGreaterThan(0);
}

describe('mergeByKey', () => {
  it('pairs equal lists one to one', () => {
    expect(mergeByKey(['x', 'y'], ['x', 'y'])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('shows a key only one side has alone, in both orders', () => {
    expect(mergeByKey(['x', 'y', 'z'], ['x', 'z'])).toEqual([
      [0, 0],
      [1, undefined],
      [2, 1],
    ]);
    expect(mergeByKey(['x', 'z'], ['x', 'y', 'z'])).toEqual([
      [0, 0],
      [undefined, 1],
      [1, 2],
    ]);
  });

  it('puts two keys that neither side has elsewhere on one row, and the longer tail alone', () => {
    expect(mergeByKey(['x', 'p', 'z'], ['x', 'q', 'z', 'w', 'v'])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [undefined, 3],
      [undefined, 4],
    ]);
  });
});

describe('nextDifference', () => {
  const differences = [3, 7, 12];
  it('steps forwards and backwards from a row, and stops at the ends', () => {
    expect(nextDifference(differences, undefined, 1)).toBe(3);
    expect(nextDifference(differences, undefined, -1)).toBe(12);
    expect(nextDifference(differences, 3, 1)).toBe(7);
    expect(nextDifference(differences, 5, 1)).toBe(7);
    expect(nextDifference(differences, 7, -1)).toBe(3);
    expect(nextDifference(differences, 8, -1)).toBe(7);
    expect(nextDifference(differences, 12, 1)).toBeUndefined();
    expect(nextDifference(differences, 3, -1)).toBeUndefined();
    expect(nextDifference([], 3, 1)).toBeUndefined();
  });
});

describe('alignTranscripts on recorded episodes', () => {
  it('rddlsim: one connection, rounds and turns; the first difference is the first other action', async () => {
    const player = createRddlsimEpisodePlayer();
    const settings = { example: 'machine_maintenance' };
    const noop = 'export function act() {\n  return null;\n}\n';
    const repairs = [
      'export function act(observation: Observation): Actions {',
      "  return observation.turn === 3 ? { name: 'repair', args: [], value: true } : null;",
      '}',
    ].join('\n');
    const [a, b] = [
      side((await recorded(player, settings, noop, 4, 2)).transcripts![0]!),
      side((await recorded(player, settings, repairs, 4, 2)).transcripts![0]!),
    ];
    const alignment = alignTranscripts(a, b);
    expectEveryMessageOnce(alignment, a, b);
    expectRowsAtTheSamePlace(alignment, a, b);
    // Turn 3 of each round: the only actions that differ.
    expect(alignment.differences).toHaveLength(2);
    const places = alignment.differences.map((position) => {
      const row = alignment.rows[position]!;
      const [x, y] = [a.summaries[row.a!]!, b.summaries[row.b!]!];
      expect(x.type).toBe('actions');
      expect(a.messages[x.index]!.text).toContain('<actions/>');
      expect(b.messages[y.index]!.text).toContain('<action-name>repair</action-name>');
      return [x.round, x.turn];
    });
    expect(places).toEqual([
      [1, 3],
      [2, 3],
    ]);
    // The same policy twice: nothing differs (the recorded server clock stands still).
    const again = side((await recorded(player, settings, repairs, 4, 2)).transcripts![0]!);
    expect(alignTranscripts(b, again).differences).toEqual([]);
    expect(
      b.messages.map((m) => m.text),
      'the server says the same to the same actions',
    ).toEqual(again.messages.map((m) => m.text));
  });

  it('MASSim: a connection per agent and a transcript per match; the first difference is at the step the policies part', async () => {
    const player = createMassimEpisodePlayer();
    const skip = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";
    const lateMover = [
      'export function act(percept: Percept, agent: Agent): Action {',
      "  if (agent.step < 15) return { type: 'skip', p: [] };",
      "  return { type: 'move', p: ['n'] };",
      '}',
    ].join('\n');
    const settings = {
      config: quickMassimConfig({ agentsPerTeam: 2, steps: 20, width: 15, height: 15 }),
      opponent: { code: skip, language: 'ts' as const, level: 'policy' as const, fileName: 'opponent.ts' },
    };
    const first = await recorded(player, settings, skip, 1, 2);
    const second = await recorded(player, settings, lateMover, 1, 2);
    expect(first.transcripts).toHaveLength(2);
    expect(second.transcripts).toHaveLength(2);
    for (const [match, team] of [
      [0, 'A'],
      [1, 'B'],
    ] as const) {
      const a = side(first.transcripts![match]!);
      const b = side(second.transcripts![match]!);
      const alignment = alignTranscripts(a, b);
      expectEveryMessageOnce(alignment, a, b);
      expectRowsAtTheSamePlace(alignment, a, b);
      const row = alignment.rows[alignment.differences[0]!]!;
      const [x, y] = [a.summaries[row.a!]!, b.summaries[row.b!]!];
      expect([x.type, x.round, x.turn, x.conn]).toEqual(['action', 1, 15, `agent${team}1.conn1`]);
      expect(a.messages[x.index]!.text).toContain('"skip"');
      expect(b.messages[y.index]!.text).toContain('"move"');
      // Before it, every row of the policy's agents said the same.
      const earlier = alignment.rows.slice(0, alignment.differences[0]).filter((r) => r.differs);
      expect(earlier).toEqual([]);
    }
  });

  it('aisys: HTTP exchanges without turns; rows pair in order and the first other answer is found', async () => {
    const player = createAisysEpisodePlayer();
    const settings = { env: 'nim' };
    const code = (id: string) => AISYS_SAMPLES.find((s) => s.id === id)!.code;
    const a = side((await recorded(player, settings, code('nim-take-one'), 2, 3)).transcripts![0]!);
    const b = side((await recorded(player, settings, code('nim-optimal'), 2, 3)).transcripts![0]!);
    const alignment = alignTranscripts(a, b);
    expectEveryMessageOnce(alignment, a, b);
    expectRowsAtTheSamePlace(alignment, a, b);
    const position = alignment.differences[0]!;
    expect(position).toBeGreaterThan(0);
    const row = alignment.rows[position]!;
    const [x, y] = [a.summaries[row.a!]!, b.summaries[row.b!]!];
    expect([x.dir, x.type, y.type]).toEqual(['c2s', 'act', 'act']);
    expect(a.messages[x.index]!.text).not.toBe(b.messages[y.index]!.text);
    // The first request (no actions yet) is the same for both.
    expect(alignment.rows[0]!.differs).toBe(false);
    const again = side((await recorded(player, settings, code('nim-optimal'), 2, 3)).transcripts![0]!);
    expect(alignTranscripts(b, again).differences).toEqual([]);
  });

  it("GAMA: the policy answers as the server; its replies are compared, not the simulation's requests", async () => {
    const player = createGamaEpisodePlayer();
    const settings = { scenario: 'C', maxCycles: 12 };
    const code = (id: string) => GAMA_SAMPLES.find((s) => s.id === id)!.code;
    const a = side((await recorded(player, settings, code('random'), 3, 1)).transcripts![0]!);
    const b = side((await recorded(player, settings, code('greedy'), 3, 1)).transcripts![0]!);
    const alignment = alignTranscripts(a, b, 's2c');
    expectEveryMessageOnce(alignment, a, b);
    expectRowsAtTheSamePlace(alignment, a, b);
    const row = alignment.rows[alignment.differences[0]!]!;
    const [x, y] = [a.summaries[row.a!]!, b.summaries[row.b!]!];
    expect([x.dir, x.type, x.round, x.channel]).toEqual(['s2c', 'reply', 1, y.channel]);
    expect(a.messages[x.index]!.text).not.toBe(b.messages[y.index]!.text);
    for (const position of alignment.differences) {
      const r = alignment.rows[position]!;
      const s = r.a !== undefined ? a.summaries[r.a]! : b.summaries[r.b!]!;
      expect(s.dir).toBe('s2c');
    }
    // Read the other way round, the same episodes differ first in what the simulation sent: later.
    const requests = alignTranscripts(a, b, 'c2s');
    expect(requests.differences[0]!).toBeGreaterThan(alignment.differences[0]!);
  });

  it('a session that ended early: the other side’s later messages stand alone and its actions differ', () => {
    const message = (index: number, dir: 'c2s' | 's2c', text: string) => ({
      index,
      conn: 'c',
      dir,
      t: 0,
      kind: 'data' as const,
      text,
    });
    const summary = (index: number, dir: 'c2s' | 's2c', turn: number) => ({
      index,
      conn: 'c',
      dir,
      t: 0,
      type: dir === 'c2s' ? 'actions' : 'turn',
      round: 1,
      turn,
      gist: '',
    });
    const long: AlignmentSide = {
      messages: [
        message(0, 's2c', 'turn 1'),
        message(1, 'c2s', 'go'),
        message(2, 's2c', 'turn 2'),
        message(3, 'c2s', 'go'),
      ],
      summaries: [summary(0, 's2c', 1), summary(1, 'c2s', 1), summary(2, 's2c', 2), summary(3, 'c2s', 2)],
    };
    const short: AlignmentSide = {
      messages: long.messages.slice(0, 2),
      summaries: long.summaries.slice(0, 2),
    };
    const alignment = alignTranscripts(short, long);
    expect(alignment.rows).toEqual([
      { a: 0, b: 0, differs: false },
      { a: 1, b: 1, differs: false },
      { b: 2, differs: false },
      { b: 3, differs: true },
    ]);
    expect(alignment.differences).toEqual([3]);
  });
});
