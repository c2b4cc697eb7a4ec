import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_DOMAINS } from '../../../../../src/core/envs/rddl';
import {
  loadExampleEnvironment,
  loadSessionEnvironment,
} from '../../../../../src/core/protocols/rddlsim/playground/environments';

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const ippcFile = (name: string) => ({ name, text: readFileSync(resolve(ippc2011, name), 'utf8') });

describe('the RDDL a session plays', () => {
  it('sends the task the real server would: the domain file, then the chosen instance’s file', () => {
    const [domain, first, second] = [
      'sysadmin_mdp.rddl',
      'sysadmin_inst_mdp__1.rddl',
      'sysadmin_inst_mdp__10.rddl',
    ].map(ippcFile);
    const { model, task } = loadSessionEnvironment({
      files: [first!, domain!, second!],
      instance: 'sysadmin_inst_mdp__10',
      rddlsimQuirks: false,
    });
    expect(model.info.instance).toBe('sysadmin_inst_mdp__10');
    expect(task).toBe(`${domain!.text}\n\n${second!.text}\n`);
  });

  it('plays an edited example with its edits', () => {
    const example = EXAMPLE_DOMAINS[0]!;
    const domain = example.domain.replace(
      'REBOOT-COST  : { non-fluent, real, default = 0.5 }',
      'REBOOT-COST  : { non-fluent, real, default = 2.5 }',
    );
    expect(domain).not.toBe(example.domain);
    const { model, task } = loadSessionEnvironment({
      files: [
        { name: 'd.rddl', text: domain },
        { name: 'i.rddl', text: example.instance },
      ],
      rddlsimQuirks: false,
    });
    expect(task).toBe(`${domain}\n\n${example.instance}\n`);
    // Reboot one computer for one step: the reward (over the state before the step) counts the edited cost.
    const simulator = model.createSimulator({ seed: 1 });
    simulator.reset();
    const running = simulator.stateFluents().filter((f) => f.name === 'running' && f.value === true).length;
    const [computer] = model.typeValues('computer')!;
    const outcome = simulator.step([{ name: 'reboot', args: [computer!], value: true }]);
    expect(outcome).toMatchObject({ kind: 'ok', reward: running - 2.5 });
  });

  it('reuses what it loaded for the same texts, and loads built-in examples as shipped', () => {
    const example = EXAMPLE_DOMAINS[1]!;
    const loaded = loadExampleEnvironment(example.id);
    expect(loadExampleEnvironment(example.id)).toBe(loaded);
    expect(loaded.task).toBe(`${example.domain}\n\n${example.instance}\n`);
  });

  it('fails with a located message for broken texts', () => {
    const example = EXAMPLE_DOMAINS[0]!;
    const broken = example.domain.replace('reward =', 'reward');
    const line = broken.split('\n').findIndex((l) => /^\s*reward \[/.test(l)) + 1;
    expect(() =>
      loadSessionEnvironment({
        files: [
          { name: 'broken.rddl', text: broken },
          { name: 'i.rddl', text: example.instance },
        ],
        rddlsimQuirks: false,
      }),
    ).toThrow(new RegExp(`^broken\\.rddl:${line}:\\d+: `));
  });
});
