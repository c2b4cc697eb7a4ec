import { describe, expect, it } from 'vitest';
import { isMassimLink } from '../../../../../src/ui/protocols/massim/link';
import { MASSIM_SAMPLES } from '../../../../../src/core/protocols/massim/samples';
import {
  DEFAULT_MASSIM_SETTINGS,
  MASSIM_SETTING_LIMITS,
  decodeMassimWorkspace,
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
  sanitizeMassimWorkspace,
} from '../../../../../src/core/protocols/massim/playground/workspace-data';

describe('the MASSim workspace as data', () => {
  it('starts with the block fetcher against the random mover, 2 x 5 agents on 40 x 40, 200 steps', () => {
    const data = defaultMassimWorkspace();
    expect(data.teamA.code).toBe(MASSIM_SAMPLES.find((s) => s.id === 'block-fetcher')!.code);
    expect(data.teamB).toMatchObject({ kind: 'sample', sample: 'random-mover' });
    expect(data.settings).toMatchObject({ agentsPerTeam: 5, width: 40, height: 40, steps: 200 });
  });

  it('goes through a link and comes back the same, sharing a sample opponent by its name only', () => {
    const data = defaultMassimWorkspace();
    data.teamA = { code: '// mine\nexport function act() { return null; }', language: 'js', level: 'policy' };
    data.settings = {
      ...data.settings,
      seed: 42,
      steps: 75,
      faithfulRaces: true,
      speed: 'fast',
      semantics: 'massim',
    };
    const encoded = encodeMassimWorkspace(data);
    expect(encoded).not.toContain('random');
    expect(decodeMassimWorkspace(encoded)).toEqual(data);
    expect(isMassimLink(`#${massimLinkParameter}=${encoded}`)).toBe(true);
    expect(isMassimLink('#p=rddlsim&seed=3')).toBe(false);
  });

  it("keeps team B's own code, and leaves a loaded configuration file out of links", () => {
    const data = defaultMassimWorkspace();
    data.teamB = {
      kind: 'own',
      sample: 'explorer',
      code: 'export const act = () => null;',
      language: 'ts',
      level: 'wire',
    };
    data.configFile = { name: 'big.json', text: '{}', includes: {} };
    const back = decodeMassimWorkspace(encodeMassimWorkspace(data))!;
    expect(back.teamB).toEqual(data.teamB);
    expect(back.configFile).toBeUndefined();
  });

  it('repairs what storage or a hand-edited link got wrong, keeping what is valid', () => {
    const repaired = sanitizeMassimWorkspace({
      teamA: { code: 42 },
      teamB: { kind: 'sample', sample: 'no-such-sample' },
      settings: {
        agentsPerTeam: 1000,
        steps: -5,
        width: 'wide',
        seed: 7.6,
        speed: 'warp',
        faithfulRaces: 'yes',
        semantics: 'java',
      },
      configFile: { name: 'c.json', text: '{}', includes: { 'a.json': '{}', 'b.json': 3 } },
    });
    expect(repaired.teamA).toEqual(defaultMassimWorkspace().teamA);
    expect(repaired.teamB.sample).toBe('random-mover');
    expect(repaired.settings).toEqual({
      ...DEFAULT_MASSIM_SETTINGS,
      agentsPerTeam: MASSIM_SETTING_LIMITS.agentsPerTeam[1],
      steps: MASSIM_SETTING_LIMITS.steps[0],
      seed: 8,
    });
    expect(repaired.configFile).toEqual({ name: 'c.json', text: '{}', includes: { 'a.json': '{}' } });
    expect(sanitizeMassimWorkspace(undefined)).toEqual(defaultMassimWorkspace());
    expect(decodeMassimWorkspace('not-a-link')).toBeUndefined();
    expect(DEFAULT_MASSIM_SETTINGS.semantics).toBe('protoplay');
  });
});
