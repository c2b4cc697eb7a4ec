import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { generatePolicyTypes } from '../../../../src/core/protocols/rddlsim/policy-types';
import { createProbeModel } from './probe-model';

const API = resolve(process.cwd(), 'src/core/protocols/rddlsim/policy-api.ts').replace(/\\/g, '/');

/** Type-checks in-memory files (plus anything they import from disk); returns the errors per file. */
function typeErrors(files: Record<string, string>): Record<string, string[]> {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    files[name] !== undefined
      ? ts.createSourceFile(name, files[name]!, language)
      : readFromDisk(name, language);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files[name] !== undefined || fileExists(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  const errors: Record<string, string[]> = {};
  for (const name of Object.keys(files)) {
    errors[name] = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(name))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  }
  return errors;
}

describe('generatePolicyTypes', () => {
  it('declares the generic API exactly as policy-api.ts defines it', () => {
    const names = [
      'FluentValue',
      'ObservedFluent',
      'Observation',
      'Action',
      'Actions',
      'ActionFluentInfo',
      'FluentInfo',
      'InstanceSummary',
      'PolicyContext',
      'ActFunction',
    ];
    const both = names
      .map(
        (name) =>
          `{ const a: Api.${name} = null as unknown as ${name}; const b: ${name} = null as unknown as Api.${name}; void a; void b; }`,
      )
      .join('\n');
    const errors = typeErrors({
      '/policy.d.ts': generatePolicyTypes(),
      '/compat.ts': `import type * as Api from '${API.replace(/\.ts$/, '')}';\n${both}\nexport {};\n`,
    });
    expect(errors['/policy.d.ts']).toEqual([]);
    expect(errors['/compat.ts']).toEqual([]);
  });

  it('types a policy against a loaded instance: actions, arguments, values and fluent keys', () => {
    const { info } = createProbeModel();
    const policy = (body: string) =>
      `export function act(observation: Observation, context: PolicyContext): Actions {\n${body}\n}\n`;
    const errors = typeErrors({
      '/policy.d.ts': generatePolicyTypes(info),
      '/good.ts': policy(`
        const flagged: boolean = observation.values['flag(a)'];
        const count: number = observation.values.count;
        const mode: '@low' | '@mid' | '@high' = observation.values.mode;
        context.log(flagged, count, mode, context.instance.objects.obj[0]);
        if (context.random() < 0.5) return null;
        return [{ name: 'toggle', args: ['b'] }, { name: 'inc', value: 2 }, { name: 'setmode', value: '@high' }];`),
      '/unknown-action.ts': policy(`return { name: 'reboot', args: ['a'] };`),
      '/unknown-object.ts': policy(`return { name: 'toggle', args: ['z'] };`),
      '/wrong-value.ts': policy(`return { name: 'setmode', value: 'high' };`),
      '/wrong-key.ts': policy(`const x: boolean = observation.values['flag(z)']; return null;`),
    });
    expect(errors['/policy.d.ts']).toEqual([]);
    expect(errors['/good.ts']).toEqual([]);
    for (const file of ['/unknown-action.ts', '/unknown-object.ts', '/wrong-value.ts', '/wrong-key.ts']) {
      expect(errors[file], file).not.toEqual([]);
    }
  });

  it('types a vector-valued fluent as the text rddlsim sends for it', () => {
    const { info } = loadRddl([
      {
        name: 'tally.rddl',
        text: `domain tally_mdp {
  types { party : {@red, @blue}; tally : [party] <? : int>; };
  pvariables { counted : { state-fluent, tally, default = < ? : 0 > }; };
  cpfs { counted' = Multinomial(party, 3, @red : 0.5, @blue : otherwise); };
  reward = counted.@red;
}
instance tally_inst { domain = tally_mdp; horizon = 2; discount = 1.0; }`,
      },
    ]);
    const errors = typeErrors({
      '/policy.d.ts': generatePolicyTypes(info),
      '/good.ts': `export function act(observation: Observation): Actions {
  const text: string = observation.values.counted;
  return text.startsWith('<') ? null : null;
}
`,
      '/wrong.ts': `export function act(observation: Observation): Actions {
  const count: number = observation.values.counted;
  return count > 0 ? null : null;
}
`,
    });
    expect(errors['/policy.d.ts']).toEqual([]);
    expect(errors['/good.ts']).toEqual([]);
    expect(errors['/wrong.ts']).not.toEqual([]);
  });

  it('makes fluent values optional in a POMDP, whose first turn observes nothing', () => {
    const { info } = createProbeModel({ partiallyObserved: true });
    const text = generatePolicyTypes(info);
    expect(text).toContain('type FluentName = "seen-count";');
    expect(text).toContain('{ [K in "seen-count"]?: number }');
  });
});
