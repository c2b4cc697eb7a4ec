/**
 * Steps per second of a whole in-memory MASSim match (emulated server, one agent connection per agent, wire
 * text recorded in the transcript, trivial in-process policies), against the scenario alone doing the same
 * steps and building the same percepts in the same run: the ratio is what the protocol layer costs.
 * The real massim_2022 server managed about 43 steps/s (2 x 20 agents, 70 x 70) and 23 steps/s (2 x 40,
 * 100 x 100) on this kind of machine with trivial agents.
 */
import { createSimulation, sampleMassimConfig } from '../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../src/core/envs/massim/api';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import type { MassimAct } from '../../src/core/protocols/massim/policy-api';
import { measureRate, printTable } from '../lib';

const directions = ['n', 'e', 's', 'w'] as const;
const wander: MassimAct = (_percept, agent) => ({
  type: 'move',
  p: [directions[(agent.step + agent.name.length) % 4]!],
});

function sampleSimulation(index: 0 | 1, steps: number): MassimServerConfig {
  const config = sampleMassimConfig();
  return {
    ...config,
    server: { ...config.server, waitBetweenSimulations: 0 },
    match: [{ ...config.match[index]!, steps }],
  };
}

/** The scenario alone: the steps and percepts the host needs, with the same joint action. */
function scenarioOnly(config: MassimServerConfig): void {
  const simulation = createSimulation(config.match[0]!, { seed: 1, teams: config.teams });
  while (!simulation.isFinished) {
    const actions = new Map<string, { type: string; p: string[] }>();
    for (const agent of simulation.agents) {
      simulation.requestActionPercept(agent);
      actions.set(agent, { type: 'move', p: [directions[(simulation.currentStep + agent.length) % 4]!] });
    }
    simulation.step(actions);
  }
}

async function wholeMatch(config: MassimServerConfig): Promise<void> {
  const runner = new MassimMatchRunner({
    config,
    teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
    seed: 1,
    recordWorld: false,
  });
  await runner.run();
}

export default async function () {
  const rows: (string | number)[][] = [
    ['setup', 'scenario only (steps/s)', 'whole match (steps/s)', 'ratio'],
  ];
  for (const [label, index, steps] of [
    ['2 x 20 agents, 70 x 70', 0, 100],
    ['2 x 40 agents, 100 x 100', 1, 50],
  ] as const) {
    const config = sampleSimulation(index, steps);
    const baseline = await measureRate('scenario', steps, () => scenarioOnly(config), {
      warmup: 1,
      repeats: 3,
    });
    const match = await measureRate('match', steps, () => wholeMatch(config), { warmup: 1, repeats: 3 });
    rows.push([
      label,
      baseline.opsPerSecond,
      match.opsPerSecond,
      `${(match.opsPerSecond / baseline.opsPerSecond).toFixed(2)}x`,
    ]);
  }
  printTable('MASSim in-memory match, trivial policies, transcript recorded (no world snapshots)', rows);
}
