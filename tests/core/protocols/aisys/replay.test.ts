/**
 * An aisys recording played again against the emulated server: one the emulator itself recorded is
 * reproduced message for message; one changed at a known place differs there, and nowhere before.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyEndpoint } from '../../../../src/core/policy/supervisor';
import { aisysProtocol, AISYS_SAMPLES } from '../../../../src/core/protocols/aisys';
import { aisysReplay } from '../../../../src/core/protocols/aisys/replay';
import type { PlaygroundServices, SessionConfig } from '../../../../src/core/protocols/session-contract';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';

const playground = aisysProtocol.playground!;

function inProcess(): PolicyEndpoint {
  const runtime = playground.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

/** A session of the page's emulated server, as its transcript. */
async function recordFromEmulator(environment: string, seed: number): Promise<Transcript> {
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const services: PlaygroundServices = {
    spawnPolicy: inProcess,
    listener: {
      update(json) {
        const status = (JSON.parse(json) as { status?: string }).status;
        if (status && ['finished', 'stopped', 'failed'].includes(status)) finish();
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async () => undefined,
  };
  const code = AISYS_SAMPLES.find((s) => s.id === 'nim-optimal')!.code;
  const config: SessionConfig = {
    protocol: 'aisys',
    environment,
    rounds: 8,
    seed,
    delayMs: 0,
    budgetMs: 10_000,
    policy: { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: 1 },
    startPaused: false,
    options: {},
  };
  const session = await (await playground.loadRunner()).start(config, services);
  await ended;
  return parseTranscriptJson(session.exportJson().join(''));
}

const responses = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');

describe('aisys replay on the emulated server', () => {
  it('reproduces a recording the emulator made: no difference in any response', async () => {
    const transcript = await recordFromEmulator('nim', 11);
    const plan = aisysReplay.plan(transcript);
    expect(plan).toMatchObject({ environment: 'nim', seed: 11 });
    const report = await aisysReplay.run(transcript);
    expect(responses(transcript).length).toBeGreaterThan(3);
    expect(report).toMatchObject({
      environmentFrom: 'recording',
      seed: 11,
      seedFrom: 'recording',
      compared: responses(transcript).length,
      differing: 0,
    });
    expect(report.first).toBeUndefined();
  });

  it('finds a changed response where it was changed: index, JSON path and both values', async () => {
    const transcript = await recordFromEmulator('nim', 11);
    const changed = responses(transcript)[2]!;
    const body = JSON.parse(changed.text!) as { action_requests: { percept: unknown }[] };
    const original = body.action_requests[0]!.percept;
    body.action_requests[0]!.percept = 999;
    const mutated: Transcript = {
      ...transcript,
      messages: transcript.messages.map((m) =>
        m.index === changed.index ? { ...m, text: JSON.stringify(body) } : m,
      ),
    };
    const report = await aisysReplay.run(mutated);
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({
      recordedIndex: changed.index,
      position: 2,
      path: '$.action_requests[0].percept',
      recorded: '999',
      emulated: JSON.stringify(original),
    });
  });

  it('a changed seed makes the server deal other runs: the first difference is named', async () => {
    const transcript = await recordFromEmulator('nim', 11);
    const report = await aisysReplay.run({ ...transcript, meta: { ...transcript.meta, seed: 12 } });
    expect(report.differing).toBeGreaterThan(0);
    expect(report.first?.recordedIndex).toBeDefined();
  });

  it('asks for the environment when the recording does not name it, and says it was chosen', async () => {
    const transcript = await recordFromEmulator('nim', 3);
    const { environment: _environment, seed: _seed, ...meta } = transcript.meta;
    const unnamed = { ...transcript, meta };
    expect(aisysReplay.plan(unnamed).environment).toBeUndefined();
    await expect(aisysReplay.run(unnamed)).rejects.toThrow(/choose one/);
    const report = await aisysReplay.run(unnamed, { environment: 'nim', seed: 3 });
    expect(report).toMatchObject({ environmentFrom: 'chosen', seedFrom: 'chosen', differing: 0 });
    expect(report.notes.join(' ')).toMatch(/does not say which environment/);
  });
});
