/**
 * A GAMA recording played again: the recorded replies fed to a fresh GAMA side, its frames compared with
 * the recorded ones. A playground session is reproduced frame for frame; a changed frame is found where it
 * was changed; a frame log naming no Protoplay scenario asks for one.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyEndpoint } from '../../../../src/core/policy/supervisor';
import { GAMA_SAMPLES, gamaProtocol } from '../../../../src/core/protocols/gama';
import { gamaReplay } from '../../../../src/core/protocols/gama/replay';
import type { PlaygroundServices, SessionConfig } from '../../../../src/core/protocols/session-contract';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';

const playground = gamaProtocol.playground!;

function inProcess(): PolicyEndpoint {
  const runtime = playground.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

/** Two short episodes of the page's emulated GAMA side, with the greedy sample answering. */
async function recordFromEmulator(seed: number): Promise<Transcript> {
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const services: PlaygroundServices = {
    spawnPolicy: inProcess,
    listener: {
      update(json) {
        if (/"status":"(finished|failed|stopped)"/.test(json)) finish();
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async () => undefined,
  };
  const config: SessionConfig = {
    protocol: 'gama',
    environment: 'C',
    rounds: 2,
    seed,
    delayMs: 0,
    budgetMs: 10_000,
    policy: {
      code: GAMA_SAMPLES.find((s) => s.id === 'greedy')!.code,
      language: 'ts',
      fileName: 'policy.ts',
      level: 'policy',
      seed: 1,
    },
    startPaused: false,
    options: { cycles: 20 },
  };
  const session = await (await playground.loadRunner()).start(config, services);
  await ended;
  return parseTranscriptJson(session.exportJson().join(''));
}

const gamaFrames = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data' && m.dir === 'c2s');

describe('GAMA replay on the emulated simulation', () => {
  it('reproduces a playground session: no difference in any frame of either episode', async () => {
    const transcript = await recordFromEmulator(4);
    expect(gamaReplay.plan(transcript)).toMatchObject({ seed: 4 });
    const report = await gamaReplay.run(transcript);
    expect(report).toMatchObject({
      environmentFrom: 'recording',
      seedFrom: 'recording',
      compared: gamaFrames(transcript).length,
      differing: 0,
    });
    expect(report.compared).toBeGreaterThan(100);
    expect(report.first).toBeUndefined();
  });

  it('finds a changed reward in a request: its index, JSON path and both values', async () => {
    const transcript = await recordFromEmulator(4);
    const requests = gamaFrames(transcript).filter((m) => m.text!.includes('"request"'));
    const changed = requests[40]!;
    const body = JSON.parse(changed.text!) as Record<string, unknown>;
    const original = body.reward;
    body.reward = 123;
    const mutated: Transcript = {
      ...transcript,
      messages: transcript.messages.map((m) =>
        m.index === changed.index ? { ...m, text: JSON.stringify(body) } : m,
      ),
    };
    const report = await gamaReplay.run(mutated);
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({
      recordedIndex: changed.index,
      conn: changed.conn,
      path: '$.reward',
      recorded: '123',
      emulated: JSON.stringify(original),
    });
  });

  it('asks for the scenario when the recording names one Protoplay does not have', async () => {
    const transcript = await recordFromEmulator(4);
    const renamed: Transcript = {
      ...transcript,
      messages: transcript.messages.map((m) =>
        m.text?.includes('"scenario"') && m.dir === 'c2s'
          ? { ...m, text: m.text.replace(/C_basic_single_entrance_region/, 'my_own_map') }
          : m,
      ),
    };
    expect(gamaReplay.plan(renamed).environment).toBeUndefined();
    await expect(gamaReplay.run(renamed)).rejects.toThrow(/'my_own_map' is not one of Protoplay's scenarios/);
    const report = await gamaReplay.run(renamed, { environment: 'C_basic_single_entrance_region' });
    expect(report.environmentFrom).toBe('chosen');
    // Only the scenario messages differ (one per episode), and the first is named.
    expect(report.differing).toBe(2);
    expect(report.first).toMatchObject({ path: '$.scenario', recorded: '"my_own_map"' });
  });
});
