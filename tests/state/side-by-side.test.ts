/**
 * The side-by-side view's sessions: a MASSim seed is two matches, each read once and lined up; the view
 * opens on the first match where the two policies differ.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import type { EpisodePlayer } from '../../src/core/protocols/evaluation-contract';
import { createMassimEpisodePlayer } from '../../src/core/protocols/massim/evaluation';
import { findProtocol } from '../../src/core/protocols/registry';
import type { Transcript } from '../../src/core/transcript/model';
import {
  packRows,
  SIDE_BY_SIDE_SLICE,
  unpackRows,
  type FromSideBySideThread,
} from '../../src/core/evaluation/side-by-side-thread';
import type { AlignedRow } from '../../src/core/evaluation/transcript-alignment';
import type { Protocol } from '../../src/core/protocols/contract';
import {
  inProcessSideBySideThread,
  sideBySide,
  SideBySideCancelled,
  SideBySideSessions,
  type SideBySideProgress,
  type SideBySideThread,
} from '../../src/state/side-by-side';

const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";
/** Skips in the first match; in the second (the other side) moves from step 5. */
const MOVES_IN_MATCH_2 = [
  'export function act(percept: Percept, agent: Agent, team: unknown, context: PolicyContext): Action {',
  "  if (context.match === 2 && agent.step >= 5) return { type: 'move', p: ['e'] };",
  "  return { type: 'skip', p: [] };",
  '}',
].join('\n');

async function matches(
  player: EpisodePlayer,
  code: string,
  size = { agentsPerTeam: 2, steps: 12 },
): Promise<Transcript[]> {
  const settings = {
    config: quickMassimConfig({ ...size, width: 15, height: 15 }),
    opponent: { code: SKIP, language: 'ts' as const, level: 'policy' as const, fileName: 'opponent.ts' },
  };
  player.prepare(settings);
  const runtime = player.policyRuntime!();
  const outcome = await player.play(
    { settings, seed: 3, rounds: 2, trace: false, record: true },
    {
      load: (context) =>
        Promise.resolve(
          runtime.load({ code, language: 'ts', level: 'policy', fileName: 'policy.ts', seed: 3, context }),
        ),
      call: (hook, args) => runtime.call(hook, args, {}),
    },
  );
  expect(outcome.fault).toBeUndefined();
  return outcome.transcripts!;
}

describe('SideBySideSessions', () => {
  it('opens on the first match where the two differ, and reads each match once', async () => {
    const player = createMassimEpisodePlayer();
    const a = await matches(player, SKIP);
    const b = await matches(player, MOVES_IN_MATCH_2);
    const sessions = new SideBySideSessions(findProtocol('massim')!, [a, b]);
    expect(sessions.count).toBe(2);
    expect((await sessions.session(0)).alignment.differences).toEqual([]);
    expect(await sessions.firstDiffering()).toBe(1);
    const second = await sessions.session(1);
    expect(await sessions.session(1)).toBe(second);
    expect(sessions.readSoFar(1)).toBe(second);
    const row = second.alignment.rows[second.alignment.differences[0]!]!;
    const summary = second.sides[1].summaries[row.b!]!;
    // In the second match the policy plays team B.
    expect([summary.type, summary.turn, summary.conn]).toEqual(['action', 5, 'agentB1.conn1']);
    expect(second.sides[1].messages[summary.index]!.text).toContain('"move"');
    // The same policy on both sides: nothing differs anywhere, the view opens on the first match.
    expect(await new SideBySideSessions(findProtocol('massim')!, [a, a]).firstDiffering()).toBe(0);
  });

  it('reads in the worker what the caller would read itself, sending long transcripts in slices', async () => {
    const player = createMassimEpisodePlayer();
    const settings = { agentsPerTeam: 4, steps: 120 };
    const a = await matches(player, SKIP, settings);
    const b = await matches(player, MOVES_IN_MATCH_2, settings);
    expect(a[1]!.messages.length).toBeGreaterThan(SIDE_BY_SIDE_SLICE);
    const protocol = findProtocol('massim')!;
    const progress: SideBySideProgress[] = [];
    const read = await new SideBySideSessions(protocol, [a, b]).session(1, (p) => progress.push(p));
    const here = sideBySide(protocol, [a, b], 1);
    expect(read.alignment).toEqual(here.alignment);
    expect(read.sides[0].summaries).toEqual(here.sides[0].summaries);
    expect(read.sides[1].summaries).toEqual(here.sides[1].summaries);
    expect(read.sides[1].notes).toEqual(here.sides[1].notes);
    expect(read.sides[1].transcript).toBe(b[1]);
    const total = a[1]!.messages.length + b[1]!.messages.length;
    const sending = progress.filter((p) => p.phase === 'sending');
    const reading = progress.filter((p) => p.phase === 'reading');
    expect(sending.length).toBeGreaterThan(2);
    expect(sending.at(-1)).toEqual({ phase: 'sending', done: total, total });
    expect(reading.at(-1)).toEqual({ phase: 'reading', done: total, total });
  });

  it('cancels: the reading rejects, the worker ends, and a later reading starts afresh', async () => {
    const player = createMassimEpisodePlayer();
    const a = await matches(player, SKIP);
    const b = await matches(player, MOVES_IN_MATCH_2);
    let spawned = 0;
    let terminated = 0;
    const spawn = () => {
      spawned++;
      const thread = inProcessSideBySideThread();
      return { ...thread, terminate: () => (terminated++, thread.terminate()) };
    };
    const sessions = new SideBySideSessions(findProtocol('massim')!, [a, b], spawn);
    const reading = sessions.session(1);
    sessions.cancel();
    await expect(reading).rejects.toBeInstanceOf(SideBySideCancelled);
    expect(terminated).toBe(1);
    expect(sessions.readSoFar(1)).toBeUndefined();
    const again = await sessions.session(1);
    expect(spawned).toBe(2);
    expect(again.alignment.differences.length).toBeGreaterThan(0);
  });

  it('reports a worker that stops, and a protocol the worker does not know', async () => {
    const player = createMassimEpisodePlayer();
    const a = await matches(player, SKIP);
    const protocol = findProtocol('massim')!;
    const dying = (): SideBySideThread => {
      const thread = inProcessSideBySideThread();
      return {
        ...thread,
        listen: (handlers) => {
          thread.listen(handlers);
          setTimeout(() => handlers.exit('the worker ran out of memory'), 0);
        },
      };
    };
    await expect(new SideBySideSessions(protocol, [a, a], dying).session(0)).rejects.toThrow(
      /side-by-side worker stopped|ran out of memory/,
    );
    const unknown = { ...protocol, id: 'no-such-protocol' } as Protocol;
    await expect(new SideBySideSessions(unknown, [a, a]).session(0)).rejects.toThrow(
      'unknown protocol "no-such-protocol"',
    );
  });

  it('takes a long lining up in over several tasks, and can be cancelled meanwhile', async () => {
    const protocol = findProtocol('massim')!;
    const empty = sideBySide(protocol, [[], []], 0).sides[0].transcript;
    // 90,000 rows, some one-sided, every 7th differing.
    const rows: AlignedRow[] = Array.from({ length: 90_000 }, (_, k) => ({
      ...(k % 5 !== 4 ? { a: k } : {}),
      ...(k % 5 !== 3 ? { b: k } : {}),
      differs: k % 7 === 0,
    }));
    const differences = rows.flatMap((row, k) => (row.differs ? [k] : []));
    let tasksWhileTaking = 0;
    /** A thread that answers every lining up with `rows`, then counts the tasks the page runs after. */
    const answering = (then?: () => void) => (): SideBySideThread => {
      let owner: ((message: FromSideBySideThread) => void) | undefined;
      return {
        post: (message) => {
          if (message.kind !== 'align') return;
          setTimeout(() => {
            owner?.({
              kind: 'aligned',
              job: message.job,
              notes: [[], []],
              rows: packRows(rows),
              differences,
            });
            const tick = () => {
              tasksWhileTaking++;
              if (tasksWhileTaking < 100) setTimeout(tick, 0);
            };
            setTimeout(tick, 0);
            then?.();
          }, 0);
        },
        listen: (handlers) => (owner = handlers.message),
        terminate: () => undefined,
      };
    };
    const read = await new SideBySideSessions(protocol, [[empty], [empty]], answering()).session(0);
    expect(read.alignment.rows).toEqual(rows);
    expect(read.alignment.differences).toEqual(differences);
    // Other tasks ran between the slices: the rows were not all unpacked in the task that brought them.
    expect(tasksWhileTaking).toBeGreaterThan(0);

    const cancelling: { sessions?: SideBySideSessions } = {};
    const sessions = new SideBySideSessions(
      protocol,
      [[empty], [empty]],
      answering(() => cancelling.sessions!.cancel()),
    );
    cancelling.sessions = sessions;
    const cancelled = sessions.session(0);
    await expect(cancelled).rejects.toBeInstanceOf(SideBySideCancelled);
    expect(sessions.readSoFar(0)).toBeUndefined();
  });
});

describe('unpackRows', () => {
  it('unpacks any stretch of rows, and the stretches together are the whole', () => {
    const rows: AlignedRow[] = [
      { a: 0, b: 0, differs: false },
      { a: 1, differs: true },
      { b: 1, differs: true },
    ];
    const packed = packRows(rows);
    expect(unpackRows(packed)).toEqual(rows);
    expect(unpackRows(packed, 1, 2)).toEqual([rows[1]]);
    expect(unpackRows(packed, 2, 10, unpackRows(packed, 0, 2))).toEqual(rows);
  });
});
