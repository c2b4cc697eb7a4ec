import { describe, expect, it } from 'vitest';
import { compilePolicy, typeScriptToJavaScript } from '../../src/core/policy/compile';
import { MASSIM_SAMPLES } from '../../src/core/protocols/massim/samples';
import { codeForLanguage } from '../../src/state/policy-language';
import { MassimWorkspace } from '../../src/ui/protocols/massim/workspace.svelte';
import { RDDLSIM_SAMPLES } from '../../src/core/protocols/rddlsim/samples';
import { Workspace } from '../../src/state/workspace.svelte';
import { playMatch, sampleCode } from './massim/play-match';

const TYPED = [
  '// Moves east. Types: see the declarations.',
  'interface Memory { steps: number }',
  'type Direction = "n" | "e";',
  '',
  'export function act(percept: Percept, agent: Agent): Action {',
  '  const memory = agent.memory as Memory;',
  '  const direction: Direction = "e";',
  "  return { type: 'move', p: [direction] };",
  '}',
].join('\n');

describe('switching a policy from TypeScript to JavaScript', () => {
  it('removes types, interfaces, aliases and casts, and keeps comments, lines and exports', () => {
    const js = typeScriptToJavaScript(TYPED)!;
    expect(js).toContain('// Moves east. Types: see the declarations.');
    expect(js).toContain('export function act(percept, agent) {');
    // Every line stays where it was (a cast leaves its space), so the lines of errors still match.
    expect(js.split('\n')).toHaveLength(TYPED.split('\n').length);
    expect(js).toMatch(/const memory = agent\.memory\s*;/);
    expect(js).toContain('const direction = "e";');
    expect(js).not.toMatch(/interface|type Direction|: Percept|as Memory/);
    const compiled = compilePolicy(js, 'js', 'policy.js');
    expect(compiled.ok).toBe(true);
  });

  it('leaves code that does not parse as TypeScript as it is', async () => {
    expect(typeScriptToJavaScript('export function act( {')).toBeUndefined();
    expect(await codeForLanguage('export function act( {', 'ts', 'js')).toBe('export function act( {');
  });

  it('keeps the code from JavaScript to TypeScript (JavaScript is TypeScript)', async () => {
    const js = 'export function act(observation) {\n  return null;\n}';
    expect(await codeForLanguage(js, 'js', 'ts')).toBe(js);
    expect(await codeForLanguage(TYPED, 'ts', 'ts')).toBe(TYPED);
  });

  it('gives JavaScript for every TypeScript sample', () => {
    for (const sample of [...RDDLSIM_SAMPLES, ...MASSIM_SAMPLES].filter((s) => s.language === 'ts')) {
      const js = typeScriptToJavaScript(sample.code);
      expect(js, sample.id).toBeDefined();
      const compiled = compilePolicy(js!, 'js', 'policy.js');
      expect(compiled.ok ? '' : compiled.fault.message, sample.id).toBe('');
    }
  });

  it('plays the same match with the converted block fetcher', async () => {
    const seed = 1;
    const typed = sampleCode('block-fetcher');
    const play = (code: string, language: 'ts' | 'js') =>
      playMatch({
        teams: {
          A: { code, language, fileName: `policy.${language}`, level: 'policy', seed },
          B: {
            code: sampleCode('random-mover'),
            language: 'ts',
            fileName: 'policy.ts',
            level: 'policy',
            seed,
          },
        },
        seed,
      });
    const [ts, js] = await Promise.all([play(typed, 'ts'), play(typeScriptToJavaScript(typed)!, 'js')]);
    expect(ts.result.simulations[0]!.scores.A).toBeGreaterThan(0);
    expect(js.result).toEqual(ts.result);
  });

  it("converts the RDDLSim workspace's code and has the editor reload it", async () => {
    const workspace = new Workspace();
    workspace.replaceCode(TYPED, 'ts');
    const replaced = workspace.replaced;
    await workspace.setLanguage('js');
    expect(workspace.language).toBe('js');
    expect(workspace.code).toBe(typeScriptToJavaScript(TYPED));
    expect(workspace.replaced).toBeGreaterThan(replaced);
    await workspace.setLanguage('ts');
    expect(workspace.language).toBe('ts');
    expect(workspace.code).toBe(typeScriptToJavaScript(TYPED));
  });

  it('keeps what the learner typed while the converter was loading', async () => {
    const workspace = new Workspace();
    workspace.replaceCode(TYPED, 'ts');
    const switching = workspace.setLanguage('js');
    workspace.code = 'export function act() { return null; }';
    await switching;
    expect(workspace.language).toBe('js');
    expect(workspace.code).toBe('export function act() { return null; }');
  });

  it("converts the MASSim workspace's edited team only", async () => {
    const workspace = new MassimWorkspace();
    workspace.teamB = { kind: 'own', sample: 'random-mover', code: TYPED, language: 'ts', level: 'policy' };
    workspace.tab = 'B';
    const teamA = workspace.teamA;
    await workspace.setLanguage('js');
    expect(workspace.editing).toMatchObject({ language: 'js', code: typeScriptToJavaScript(TYPED) });
    expect(workspace.teamA).toEqual(teamA);
  });
});
