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
import { SideBySideSessions } from '../../src/state/side-by-side';

const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";
/** Skips in the first match; in the second (the other side) moves from step 5. */
const MOVES_IN_MATCH_2 = [
  'export function act(percept: Percept, agent: Agent, team: unknown, context: PolicyContext): Action {',
  "  if (context.match === 2 && agent.step >= 5) return { type: 'move', p: ['e'] };",
  "  return { type: 'skip', p: [] };",
  '}',
].join('\n');

async function matches(player: EpisodePlayer, code: string): Promise<Transcript[]> {
  const settings = {
    config: quickMassimConfig({ agentsPerTeam: 2, steps: 12, width: 15, height: 15 }),
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
    expect(sessions.session(0).alignment.differences).toEqual([]);
    expect(sessions.firstDiffering()).toBe(1);
    const second = sessions.session(1);
    expect(sessions.session(1)).toBe(second);
    const row = second.alignment.rows[second.alignment.differences[0]!]!;
    const summary = second.sides[1].summaries[row.b!]!;
    // In the second match the policy plays team B.
    expect([summary.type, summary.turn, summary.conn]).toEqual(['action', 5, 'agentB1.conn1']);
    expect(second.sides[1].messages[summary.index]!.text).toContain('"move"');
    // The same policy on both sides: nothing differs anywhere, the view opens on the first match.
    expect(new SideBySideSessions(findProtocol('massim')!, [a, a]).firstDiffering()).toBe(0);
  });
});
