/**
 * A match whose transcript is not kept but streamed (what `protoplay run massim --transcript` does) gives
 * the same messages and annotations as the whole transcript kept in memory, and holds only its last chunks.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import { MassimMatchRunner } from '../../../../src/core/protocols/massim/runner';
import { createTeamDecide } from '../../../../src/core/protocols/massim/client';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { transcriptJson } from '../../../../src/core/transcript/json-export';
import type { Transcript } from '../../../../src/core/transcript/model';

function config(): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: 3, steps: 40, width: 24, height: 24 });
  return { ...base, server: { ...base.server, agentTimeout: 4000, waitBetweenSimulations: 1000 } };
}

const wander: MassimAct = (_percept, agent) => ({
  type: 'move',
  p: [(['n', 'e', 's', 'w'] as const)[(agent.step * 7 + agent.name.length) % 4]!],
});

function runner(recording?: ConstructorParameters<typeof MassimMatchRunner>[0]['recording']) {
  return new MassimMatchRunner({
    config: config(),
    teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
    seed: 4,
    startTime: 1_000,
    ...(recording ? { recording } : {}),
  });
}

describe('MassimMatchRunner recording', () => {
  it('streams the same messages and annotations as the kept transcript, keeping only its last chunks', async () => {
    const kept = runner();
    await kept.run();
    const whole = JSON.parse(transcriptJson(kept.host.store)) as Transcript;

    const messages: unknown[] = [];
    const annotations: unknown[] = [];
    const streamed = runner({
      keep: false,
      chunkMessages: 32,
      sink: {
        messageJson: (json) => messages.push(JSON.parse(json)),
        annotationJson: (json) => annotations.push(JSON.parse(json)),
      },
    });
    await streamed.run();
    const store = streamed.host.store;

    expect(whole.messages.length).toBeGreaterThan(400);
    expect(whole.annotations.some((annotation) => annotation.type === 'world')).toBe(true);
    expect(messages).toEqual(whole.messages);
    expect(annotations).toEqual(whole.annotations);
    expect(store.connections).toEqual(whole.connections);
    expect(store.meta).toEqual(whole.meta);
    expect(store.startedAt).toBe(whole.startedAt);
    // Counted, not held: the first messages are gone, the last ones still read back.
    expect(store.length).toBe(whole.messages.length);
    expect(store.annotationCount).toBe(whole.annotations.length);
    expect(() => store.message(0)).toThrow(/message 0 was not kept/);
    expect(store.message(store.length - 1)).toEqual(whole.messages.at(-1));
    expect(store.size().messages).toBe(store.length);
    expect(store.size().chunks).toBeLessThanOrEqual(2);
    // The phrase book, which gains phrases at every step, was started anew.
    expect(store.phrases.size).toBeLessThan(kept.host.store.phrases.size / 2);
  });
});
