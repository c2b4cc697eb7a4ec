import { describe, expect, it } from 'vitest';
import { findScavengerScenario } from '../../../../src/core/envs/scavenger';
import type { PolicyEndpoint } from '../../../../src/core/policy/supervisor';
import {
  GAMA_ACT,
  GAMA_SAMPLES,
  GamaPolicyRuntime,
  gamaFrameLogFormat,
  gamaProtocol,
  playGamaEpisodes,
  writeGamaFrameLog,
} from '../../../../src/core/protocols/gama';
import type { GamaWorldView } from '../../../../src/core/protocols/gama/playground/options';
import type { GamaWorldUnavailable } from '../../../../src/core/protocols/gama/playground/replayed-worlds';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
} from '../../../../src/core/protocols/session-contract';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';

const playground = gamaProtocol.playground!;
const sampleCode = (id: string) => GAMA_SAMPLES.find((s) => s.id === id)!.code;

function inProcess(): PolicyEndpoint {
  const runtime = playground.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

function services(onEnd: () => void): PlaygroundServices {
  return {
    spawnPolicy: inProcess,
    listener: {
      update(json) {
        if (/"status":"(finished|failed|stopped)"/.test(json)) onEnd();
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async () => undefined,
  };
}

async function show(transcript: Transcript): Promise<PlaygroundSession> {
  const runner = await playground.loadRunner();
  return runner.show(
    { transcript, origin: 'imported' },
    services(() => undefined),
  );
}

function frameLog(transcript: Transcript): Transcript {
  const text = writeGamaFrameLog(transcript);
  const read = gamaFrameLogFormat.read([{ name: 'x.gamalog', bytes: new TextEncoder().encode(text) }]);
  expect(read.problems).toEqual([]);
  return read.transcripts[0]!;
}

/** Plays episodes in memory with the greedy sample, recorded without a header (as a frame log is). */
async function playBare(seed: number, cycles = 30) {
  const recorder = new TranscriptRecorder({ protocol: 'gama' });
  const runtime = new GamaPolicyRuntime();
  runtime.load({ code: sampleCode('greedy'), language: 'ts', fileName: 'g.ts', level: 'policy', seed: 1 });
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('C')!, seed, maxCycles: cycles },
    decide: async (decision) => {
      const outcome = await runtime.call(GAMA_ACT, [decision], {});
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as string;
    },
    episodes: 2,
    recorder,
  });
  return recorder.transcript;
}

describe('the world of an opened GAMA transcript', () => {
  it('is rebuilt exactly for a playground session, cycle by cycle, beams included', async () => {
    let ended: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const runner = await playground.loadRunner();
    const config: SessionConfig = {
      protocol: 'gama',
      environment: 'C',
      rounds: 2,
      seed: 11,
      delayMs: 0,
      budgetMs: 10_000,
      startPaused: false,
      policy: {
        code: sampleCode('random'),
        language: 'ts',
        fileName: 'random.ts',
        level: 'policy',
        seed: 11,
      },
      options: { cycles: 40, faithfulQuirks: true },
    };
    const live = await runner.start(config, services(ended));
    await done;
    const opened = await show(parseTranscriptJson(live.exportJson().join('')));
    let beams = 0;
    for (const episode of [1, 2])
      for (let cycle = 0; cycle <= 40; cycle++) {
        const played = live.ask('world', [episode, cycle]) as GamaWorldView;
        const rebuilt = opened.ask('world', [episode, cycle]) as GamaWorldView;
        expect(rebuilt.source).toMatch(/seed 1[12] and the faithful quirks; every request matched/);
        const { source: _, ...world } = rebuilt;
        expect(world).toEqual(played);
        beams += rebuilt.beams.length;
      }
    expect(beams).toBeGreaterThan(0);
  });

  it('is rebuilt for a frame log played with the default seed, and refused with the reason for another', async () => {
    const bare = await playBare(0);
    const opened = await show(frameLog(bare));
    const world = opened.ask('world', [2, 30]) as GamaWorldView;
    expect(world.world.cycle).toBe(30);
    expect(world.source).toContain('seed 1');

    // Another seed regrows resources elsewhere: the replay keeps up until a scavenger sees a difference.
    const other = await show(frameLog(await playBare(9, 60)));
    const refused = other.ask('world', [1, 60]) as GamaWorldUnavailable;
    expect(refused.unavailable).toMatch(
      /rebuilt up to cycle \d+ only: from there the recorded requests differ/,
    );
    const verified = Number(/up to cycle (\d+)/.exec(refused.unavailable)![1]);
    expect(verified).toBeLessThan(60);
    expect((other.ask('world', [1, verified]) as GamaWorldView).world.cycle).toBe(verified);
    expect(other.ask('world', [1, verified + 1])).toHaveProperty('unavailable');
    // What the wire tells instead: every scavenger, its rewards so far, whether it asked in the cycle.
    expect(refused.scavengers.map((s) => s.id)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Scav. ${i + 1}`),
    );
    const total = refused.scavengers.reduce((sum, s) => sum + s.reward, 0);
    expect(total).toBeGreaterThan(0);
    expect(refused.scavengers.every((s) => s.collected === s.reward / 5)).toBe(true);
  });

  it('follows a transcript still being read, rebuilding an episode once all of it is read', async () => {
    const whole = frameLog(await playBare(0));
    const secondStarts = whole.messages.findIndex((m) => m.conn === 'episode 2');
    const transcript: Transcript = { ...whole, messages: whole.messages.slice(0, secondStarts + 100) };
    const growing = { done: false, onGrow: (_listener: () => void) => undefined };
    const runner = await playground.loadRunner();
    const opened = runner.show(
      { transcript, origin: 'imported', growing },
      services(() => undefined),
    );
    // The first episode is wholly read: its world is the one a whole import gives.
    const complete = await show(whole);
    expect(opened.ask('world', [1, 30])).toEqual(complete.ask('world', [1, 30]));
    // The second is being read: not rebuilt from part of it.
    expect(opened.ask('world', [2, 1])).toMatchObject({
      unavailable: expect.stringMatching(/still being read/),
    });
    expect(opened.ask('episodes', [])).toHaveLength(2);
    // Read to its end: the second episode's world and results are those of the whole import.
    transcript.messages.push(...whole.messages.slice(transcript.messages.length));
    growing.done = true;
    const world = opened.ask('world', [2, 30]) as GamaWorldView;
    expect(world.world.cycle).toBe(30);
    expect(world).toEqual(complete.ask('world', [2, 30]));
    expect(opened.ask('episodes', [])).toEqual(complete.ask('episodes', []));
  });

  it('says the map is unknown for a scenario that is not one of Protoplay’s', async () => {
    const log = [
      '{ "scenario": "my_own_map" }',
      '{ "id": "Scav. 1", "connect": true }',
      '{ "id": "Scav. 1", "request": { "state": [ [ 0, 1, 0 ], [ 0, 4, 0 ] ], "reward": 0 } }',
      'Scav. 1;move_ahead',
      '{ "id": "Scav. 1", "request": { "state": [ [ 0, 0, 0 ], [ 0, 4, 0 ] ], "reward": 5 } }',
      'Scav. 1;idle',
    ].join('\n');
    const read = gamaFrameLogFormat.read([{ name: 'm.gamalog', bytes: new TextEncoder().encode(log) }]);
    const opened = await show(read.transcripts[0]!);
    const answer = opened.ask('world', [1, 1]) as GamaWorldUnavailable;
    expect(answer.unavailable).toMatch(/'my_own_map' is not one of Protoplay's scenarios/);
    expect(answer.scavengers).toEqual([{ id: 'Scav. 1', reward: 5, collected: 1, asked: true }]);
    expect(opened.ask('world', [2, 1])).toBeUndefined();
  });
});
