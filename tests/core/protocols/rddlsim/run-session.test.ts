import { describe, expect, it } from 'vitest';
import { EXAMPLE_DOMAINS, exampleSources, runSession, type ActFunction } from '../../../../src/core/index';

const rddl = exampleSources(EXAMPLE_DOMAINS[0]!);
const rebootFirstDown: ActFunction = (observation, context) => {
  const down = context.instance.objects.computer!.filter(
    (c) => observation.values[`running(${c})`] === false,
  );
  return down.length ? { name: 'reboot', args: [down[0]!] } : null;
};

describe('runSession, the library entry', () => {
  it('plays every round and repeats exactly with the same seed', async () => {
    const first = await runSession({ rddl, act: rebootFirstDown, rounds: 3, seed: 7 });
    expect(first.status).toBe('finished');
    expect(first.rounds.map((round) => round.round)).toEqual([1, 2, 3]);
    expect(first.totalReward).toBeTypeOf('number');
    expect(first.transcript.messages.some((message) => message.text?.includes('<session-end>'))).toBe(true);
    const again = await runSession({ rddl, act: rebootFirstDown, rounds: 3, seed: 7 });
    expect(again.rounds.map((round) => round.reward)).toEqual(first.rounds.map((round) => round.reward));
    const noop = await runSession({ rddl, act: () => null, rounds: 3, seed: 7 });
    expect(noop.rounds.map((round) => round.reward)).not.toEqual(first.rounds.map((round) => round.reward));
  });

  it('stops at a policy that throws, with its message in the transcript', async () => {
    const result = await runSession({
      rddl,
      act: (observation) => {
        if (observation.turn === 2) throw new Error('no idea what to do');
        return null;
      },
      rounds: 2,
    });
    expect(result.status).toBe('stopped');
    expect(result.totalReward).toBeUndefined();
    const errors = result.transcript.annotations.filter((annotation) => annotation.type === 'error');
    expect(JSON.stringify(errors)).toContain('no idea what to do');
  });

  it('throws a located error for RDDL that does not load', async () => {
    const broken = [{ name: 'broken.rddl', text: 'domain broken {\n  types { t : object; \n' }];
    await expect(runSession({ rddl: broken, act: () => null })).rejects.toThrow(/broken\.rddl:\d+:\d+/);
  });

  it('plays a policy that sets a vector-valued action, through the wire', async () => {
    const rovers = [
      {
        name: 'rovers.rddl',
        text: `domain rovers {
  types { rover : object; motion : <@dx : real, @dy : int>; };
  pvariables {
    move(rover) : { action-fluent, motion, default = < @dx : 0.0, @dy : 0 > };
    x(rover) : { state-fluent, real, default = 0.0 };
  };
  cpfs { x'(?r) = x(?r) + move(?r).@dx; };
  reward = sum_{?r : rover}[x(?r)];
}
instance rovers_two { domain = rovers; objects { rover : {r1, r2}; }; max-nondef-actions = 1; horizon = 3; discount = 1.0; }`,
      },
    ];
    const result = await runSession({
      rddl: rovers,
      act: () => ({ name: 'move', args: ['r2'], value: '< @dx: 2.0, @dy: 1 >' }),
      rounds: 1,
    });
    expect(result.status).toBe('finished');
    // x(r2) is 0, 2 and 4 in the three states the reward reads.
    expect(result.rounds[0]!.reward).toBe(6);
  });
});
