import { describe, expect, it } from 'vitest';
import { PolicyRuntime, findNonData } from '../../../src/core/policy/runtime';
import type { PolicySource } from '../../../src/core/policy/types';

function source(code: string, overrides: Partial<PolicySource> = {}): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: 1, ...overrides };
}

describe('PolicyRuntime', () => {
  it('loads a policy and calls act with the observation and a context', async () => {
    const runtime = new PolicyRuntime();
    const loaded = runtime.load(
      source(
        'export function act(obs: { n: number }, ctx: { turn: number }) { return { sum: obs.n + ctx.turn }; }',
      ),
    );
    expect(loaded).toMatchObject({ ok: true, hooks: ['act'] });
    const outcome = await runtime.call('act', [{ n: 2 }], { turn: 5 });
    expect(outcome).toMatchObject({ ok: true, value: { sum: 7 } });
  });

  it('accepts a default-exported object of hooks and async hooks', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(
      source('export default { async act() { await null; return [1]; }, onRoundEnd() { return "x"; } };'),
    );
    expect(await runtime.call('act', [{}], {})).toMatchObject({ ok: true, value: [1] });
    expect(await runtime.call('onRoundEnd', [], {})).toMatchObject({ ok: true, value: 'x' });
  });

  it('returns undefined for an optional hook the policy does not export', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(source('export const act = () => null;'));
    expect(await runtime.call('onRoundStart', [], {})).toMatchObject({ ok: true, value: undefined });
  });

  it('refuses a module without the entry of its level', () => {
    const runtime = new PolicyRuntime();
    expect(runtime.load(source('export function decide() {}'))).toMatchObject({
      ok: false,
      fault: { kind: 'load', message: 'the policy must export a function act(observation, context)' },
    });
    expect(runtime.load(source('export function act() {}', { level: 'wire' }))).toMatchObject({
      ok: false,
      fault: { message: 'the policy must export a function onMessage(message, context)' },
    });
  });

  it('locates an error thrown by act at the line and column where it was created in the TypeScript source', async () => {
    const code = [
      'type Obs = Record<string, boolean>;', // 1
      'const limit: number = 3;', // 2
      'export function act(obs: Obs): string[] {', // 3
      '  const names: string[] = Object.keys(obs);', // 4
      '  if (names.length > limit) throw new RangeError(`too many: ${names.length}`);', // 5
      '  return names;', // 6
      '}',
    ].join('\n');
    const runtime = new PolicyRuntime();
    expect(runtime.load(source(code)).ok).toBe(true);
    const outcome = await runtime.call('act', [{ a: true, b: true, c: true, d: false }], {});
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.fault).toMatchObject({ kind: 'call', hook: 'act', message: 'RangeError: too many: 4' });
    const line5 = code.split('\n')[4]!;
    expect(outcome.fault.location).toEqual({
      source: 'policy.ts',
      line: 5,
      column: line5.indexOf('new RangeError') + 1,
    });
  });

  it('locates a runtime TypeError inside a nested function of a JavaScript policy', async () => {
    const code = [
      'function helper(o) {',
      '  return o.missing.deeper;',
      '}',
      'export function act(o) {',
      '  return helper(o);',
      '}',
    ].join('\n');
    const runtime = new PolicyRuntime();
    runtime.load(source(code, { language: 'js', fileName: 'policy.js' }));
    const outcome = await runtime.call('act', [{}], {});
    if (outcome.ok) throw new Error('expected a fault');
    expect(outcome.fault.message).toMatch(/^TypeError: /);
    expect(outcome.fault.location).toMatchObject({ source: 'policy.js', line: 2 });
  });

  it('locates an error thrown by the top-level code while loading', () => {
    const runtime = new PolicyRuntime();
    const outcome = runtime.load(
      source('const a = 1;\nconst table = JSON.parse("{oops");\nexport function act() {}'),
    );
    expect(outcome).toMatchObject({ ok: false, fault: { kind: 'load', location: { line: 2 } } });
  });

  it('reports a non-Error throw by its value, without a location', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(source('export function act() { throw "nope"; }'));
    const outcome = await runtime.call('act', [{}], {});
    expect(outcome).toMatchObject({ ok: false, fault: { kind: 'call', message: 'uncaught "nope"' } });
  });

  it('reports a syntax error with its location instead of loading', () => {
    const runtime = new PolicyRuntime();
    const outcome = runtime.load(source('export function act() {\n  return [;\n}'));
    expect(outcome).toMatchObject({ ok: false, fault: { kind: 'compile', location: { line: 2 } } });
  });

  it('refuses imports with a message naming the module', () => {
    const runtime = new PolicyRuntime();
    const outcome = runtime.load(
      source("import { shuffle } from 'lodash';\nexport function act() { return shuffle([]); }"),
    );
    expect(outcome).toMatchObject({ ok: false, fault: { kind: 'load', location: { line: 1 } } });
    if (!outcome.ok) expect(outcome.fault.message).toContain("'lodash'");
  });

  it('captures console output per call as policy logs, formatted like a console', async () => {
    const runtime = new PolicyRuntime();
    const loaded = runtime.load(
      source(
        'console.info("loading");\nexport function act(o: unknown) { console.log("obs", o, [1, "a"]); console.warn(new Error("w")); return 0; }',
      ),
    );
    expect(loaded.logs).toEqual([{ level: 'info', text: 'loading' }]);
    const outcome = await runtime.call('act', [{ up: true, n: 2 }], {});
    expect(outcome.logs).toEqual([
      { level: 'log', text: 'obs { up: true, n: 2 } [ 1, "a" ]' },
      { level: 'warn', text: 'Error: w' },
    ]);
    // The next call starts with an empty log.
    expect((await runtime.call('act', [null], {})).logs).toEqual([
      { level: 'log', text: 'obs null [ 1, "a" ]' },
      { level: 'warn', text: 'Error: w' },
    ]);
  });

  it('bounds the log lines kept per call', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(source('export function act() { for (let i = 0; i < 1000; i++) console.log(i); }'));
    const { logs } = await runtime.call('act', [], {});
    expect(logs.length).toBeLessThan(1000);
    expect(logs.at(-1)?.text).toMatch(/more log lines dropped/);
  });

  it('gives the context seeded random helpers: the same seed replays the same choices', async () => {
    const code = 'export function act(_o: unknown, ctx: any) { return [ctx.random(), ctx.random()]; }';
    const draw = async (seed: number) => {
      const runtime = new PolicyRuntime();
      runtime.load(source(code, { seed }));
      const first = await runtime.call('act', [{}], {});
      const second = await runtime.call('act', [{}], {});
      return [first.ok && first.value, second.ok && second.value];
    };
    expect(await draw(7)).toEqual(await draw(7));
    expect(await draw(7)).not.toEqual(await draw(8));
  });

  it('merges the session context given at load into every call, under the call context', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(
      source('export function act(_o: unknown, ctx: any) { return [ctx.instance.name, ctx.turn]; }', {
        context: { instance: { name: 'office' }, turn: 0 },
      }),
    );
    expect(await runtime.call('act', [{}], { turn: 3 })).toMatchObject({ ok: true, value: ['office', 3] });
  });

  it('keeps context.memory between calls and sends context.log to the policy log', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(
      source(
        'export function act(_o: unknown, ctx: any) { ctx.memory.n = (ctx.memory.n ?? 0) + 1; ctx.log("n is", ctx.memory.n); return ctx.memory.n; }',
      ),
    );
    await runtime.call('act', [{}], { memory: 'ignored: the runtime owns memory' });
    const second = await runtime.call('act', [{}], {});
    expect(second).toMatchObject({ ok: true, value: 2, logs: [{ level: 'log', text: 'n is 2' }] });
    // Loading again starts with fresh memory.
    runtime.load(
      source('export function act(_o: unknown, ctx: any) { return Object.keys(ctx.memory).length; }'),
    );
    expect(await runtime.call('act', [{}], {})).toMatchObject({ ok: true, value: 0 });
  });

  it('reports a result that cannot leave the worker', async () => {
    const runtime = new PolicyRuntime();
    runtime.load(source('export function act() { return [{ value: () => 1 }]; }'));
    expect(await runtime.call('act', [], {})).toMatchObject({
      ok: false,
      fault: { kind: 'result', message: 'act returned a function at [0].value; return plain data' },
    });
  });
});

describe('findNonData', () => {
  it('accepts plain data and names cycles', () => {
    expect(findNonData({ a: [1, 'x', null, { b: true }] })).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findNonData(cyclic)).toBe('a circular reference at self');
  });
});
