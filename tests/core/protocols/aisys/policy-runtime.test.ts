/**
 * The aisys policy runtime (what a policy worker runs): a whole batch per call, a memory per run that
 * lives as long as the run, `onRunEnd` before the requests, and faults located in the user's code.
 */
import { describe, expect, it } from 'vitest';
import { AisysPolicyRuntime } from '../../../../src/core/protocols/aisys/policy-runtime';
import { AISYS_DECIDE, type AisysDecisionBatch } from '../../../../src/core/protocols/aisys/policy-api';

const POLICY = `
export function act(percept: number, run: any, context: any) {
  run.memory.seen = [...(run.memory.seen ?? []), percept];
  context.memory.calls = (context.memory.calls ?? 0) + 1;
  return { run: run.id, actNo: run.actNo, seen: run.memory.seen, env: context.env };
}
export function onRunEnd(outcome: number, run: any, context: any) {
  context.log('end', run.id, outcome, run.memory.seen.join(','));
}
`;

function batch(
  requests: [string, number, number][],
  active: string[],
  finished: [string, number][] = [],
): AisysDecisionBatch {
  return {
    requests: requests.map(([run, actNo, percept]) => ({ run, actNo, percept, url: `u/${run}` })),
    finished: finished.map(([run, outcome]) => ({ run, outcome, url: `u/${run}` })),
    active,
    messages: [],
  };
}

function loaded(code = POLICY) {
  const runtime = new AisysPolicyRuntime();
  const outcome = runtime.load({ code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: 0 });
  return { runtime, outcome };
}

describe('the aisys policy runtime', () => {
  it('answers every request of a batch, each run with its own memory', async () => {
    const { runtime } = loaded();
    const first = await runtime.call(
      AISYS_DECIDE,
      [
        batch(
          [
            ['1', 0, 9],
            ['2', 0, 10],
          ],
          ['1', '2'],
        ),
      ],
      { env: 'nim' },
    );
    expect(first).toMatchObject({
      ok: true,
      value: [
        { run: '1', actNo: 0, seen: [9], env: 'nim' },
        { run: '2', actNo: 0, seen: [10], env: 'nim' },
      ],
    });
    const second = await runtime.call(AISYS_DECIDE, [batch([['1', 1, 5]], ['1', '2'])], { env: 'nim' });
    expect(second).toMatchObject({ ok: true, value: [{ run: '1', actNo: 1, seen: [9, 5] }] });
  });

  it('calls onRunEnd with the run memory, then forgets the run; inactive runs are forgotten too', async () => {
    const { runtime } = loaded();
    await runtime.call(
      AISYS_DECIDE,
      [
        batch(
          [
            ['1', 0, 9],
            ['2', 0, 10],
          ],
          ['1', '2'],
        ),
      ],
      {},
    );
    const ended = await runtime.call(AISYS_DECIDE, [batch([['3', 0, 11]], ['3'], [['1', 1]])], {});
    expect(ended.logs).toEqual([{ level: 'log', text: 'end 1 1 9' }]);
    // Run 2 left the active runs without finishing here: its memory is gone.
    const again = await runtime.call(AISYS_DECIDE, [batch([['2', 1, 4]], ['2'])], {});
    expect(again).toMatchObject({ ok: true, value: [{ seen: [4] }] });
  });

  it('asks for act(percept, run, context) when the module lacks it', () => {
    const { outcome } = loaded('export const x = 1;');
    expect(outcome).toMatchObject({
      ok: false,
      fault: { kind: 'load', message: 'the policy must export a function act(percept, run, context)' },
    });
  });

  it('reports a throw located in the policy', async () => {
    const { runtime } = loaded(
      'export function act(percept: number) {\n  throw new Error(`no move for ${percept}`);\n}\n',
    );
    const outcome = await runtime.call(AISYS_DECIDE, [batch([['1', 0, 9]], ['1'])], {});
    expect(outcome).toMatchObject({
      ok: false,
      fault: { kind: 'call', message: expect.stringContaining('no move for 9'), location: { line: 2 } },
    });
  });
});
