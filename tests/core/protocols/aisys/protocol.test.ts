/**
 * The aisys `Protocol` value: what it declares, the sample policies (they type-check against the
 * editor's declarations and play as described, in the same runtime as the policy worker), and the
 * emulated session they play in.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { AisysPolicyRuntime } from '../../../../src/core/protocols/aisys/policy-runtime';
import { supervisedDecide } from '../../../../src/core/protocols/aisys/decide';
import { AisysSession } from '../../../../src/core/protocols/aisys/session';
import { validate } from '../../../../src/core/protocols/machine';

/** Type-checks policies against the declarations; returns the errors of each. */
function typeErrors(policies: Record<string, string>, declarations: string): Record<string, string[]> {
  const files: Record<string, string> = { '/policy-types.d.ts': declarations };
  for (const [id, code] of Object.entries(policies)) files[`/${id}.ts`] = code;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    skipLibCheck: true,
    noUnusedLocals: false,
  };
  const host = ts.createCompilerHost(options);
  const fromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    files[name] !== undefined ? ts.createSourceFile(name, files[name]!, language) : fromDisk(name, language);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => files[name] !== undefined || exists(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  return Object.fromEntries(
    Object.keys(policies).map((id) => [
      id,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(`/${id}.ts`))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    ]),
  );
}

/** A session of `runs` runs with a sample's code in an in-process aisys policy runtime. */
async function play(code: string, env: string, runs = 20, seed = 1) {
  const runtime = new AisysPolicyRuntime();
  const loaded = runtime.load({ code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed });
  expect(loaded).toMatchObject({ ok: true });
  const session = new AisysSession({
    env,
    runs,
    seed,
    now: () => 0,
    decide: supervisedDecide({ call: (hook, args, context) => runtime.call(hook, args, context) }, { env }),
  });
  const outcome = await session.run();
  return { session, outcome };
}

describe('the aisys protocol', () => {
  it('declares an HTTP transport, both machines, its formats and environments', () => {
    expect(aisysProtocol.id).toBe('aisys');
    expect(aisysProtocol.transport).toMatchObject({ kind: 'http', defaultPort: 5000 });
    // One agent is one conversation, whatever connection its requests come on.
    const { transport } = aisysProtocol;
    if (transport.kind !== 'http') throw new Error('not an HTTP protocol');
    const request = { meta: { method: 'PUT', path: '/act/nim' }, body: '{"agent": "ann", "pwd": "x"}' };
    expect(transport.channelOf?.(request)).toBe('nim/ann');
    expect(aisysProtocol.machines.map((machine) => machine.role).sort()).toEqual(['client', 'server']);
    expect(aisysProtocol.validationScope).toBe('channel');
    expect(aisysProtocol.recordingFormats.map((format) => format.id)).toEqual([
      'aisys-exchange-jsonl',
      'aisys-http-text',
      'aisys-har',
    ]);
    expect(aisysProtocol.environments.map((env) => env.id)).toContain(aisysProtocol.defaultEnvironment);
    expect(aisysProtocol.samples.map((sample) => sample.id)).toContain(aisysProtocol.defaultSample);
    expect(aisysProtocol.prettyPrint('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(aisysProtocol.prettyPrint('not json')).toBe('not json');
  });

  for (const env of aisysProtocol.environments) {
    it(`its samples type-check against the declarations for ${env.id}`, async () => {
      const samples = aisysProtocol.samples.filter(
        (sample) => !sample.environments || sample.environments.includes(env.id),
      );
      const declarations = await aisysProtocol.policyTypes(env.id);
      expect(typeErrors(Object.fromEntries(samples.map((s) => [s.id, s.code])), declarations)).toEqual(
        Object.fromEntries(samples.map((s) => [s.id, []])),
      );
    });
  }
});

describe('the samples', () => {
  it('perfect Nim wins every run against both opponents', async () => {
    for (const env of ['nim', 'nim-strong']) {
      const { session, outcome } = await play(code('nim-optimal'), env);
      expect(outcome.kind).toBe('finished');
      expect(session.finished.length).toBeGreaterThanOrEqual(20);
      expect(session.finished.every((run) => run.outcome === 1)).toBe(true);
    }
  });

  it('random and take-one lose some runs, the same ones for the same seed', async () => {
    for (const id of ['nim-random', 'nim-take-one']) {
      const first = await play(code(id), 'nim', 30, 5);
      const again = await play(code(id), 'nim', 30, 5);
      expect(first.session.finished).toEqual(again.session.finished);
      expect(first.session.finished.some((run) => run.outcome === 0)).toBe(true);
    }
  });

  it('the cave explorer brings gold out of the Wumpus cave', async () => {
    const { session, outcome } = await play(code('cave-explorer'), 'wumpus-cave', 10);
    expect(outcome.kind).toBe('finished');
    const gold = session.finished.map((run) => run.outcome as number);
    expect(gold.every((amount) => amount === 2)).toBe(true);
  });

  it('notes per run: keeps a memory per run and logs each end', async () => {
    const { session } = await play(code('nim-notes'), 'nim', 10);
    const logs = session.transcript.annotations
      .filter((annotation) => annotation.type === 'policy-log')
      .map((annotation) => (annotation.data as { text: string }).text);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toMatch(/^run \d+: won after seeing \d+(, \d+)*; 1 won so far$/);
  });
});

describe('the emulated session', () => {
  it('records a transcript both machines accept, the same for the same seed', async () => {
    const { session } = await play(code('nim-random'), 'nim', 25, 9);
    for (const machine of aisysProtocol.machines)
      expect(validate(machine, session.transcript.messages).violations).toEqual([]);
    const again = await play(code('nim-random'), 'nim', 25, 9);
    expect(again.session.transcript.messages).toEqual(session.transcript.messages);
  });

  it('plays one run at a time without parallel runs', async () => {
    const runtime = new AisysPolicyRuntime();
    runtime.load({ code: code('nim-optimal'), language: 'ts', fileName: 'p.ts', level: 'policy', seed: 0 });
    const session = new AisysSession({
      env: 'nim-strong',
      runs: 3,
      parallelRuns: false,
      decide: supervisedDecide(
        { call: (hook, args, context) => runtime.call(hook, args, context) },
        { env: 'nim' },
      ),
    });
    await session.run();
    const answers = session.transcript.messages.filter((message) => message.dir === 's2c');
    for (const answer of answers)
      expect(JSON.parse(answer.text!).action_requests.length).toBeLessThanOrEqual(1);
  });
});

/** A sample's code. */
function code(id: string): string {
  return aisysProtocol.samples.find((sample) => sample.id === id)!.code;
}
