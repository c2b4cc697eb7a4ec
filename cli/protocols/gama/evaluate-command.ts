/**
 * `protoplay evaluate gama`: the simulation options of `run gama`, turned into the settings of GAMA's
 * episode player. Each seed plays `--rounds` episodes (default 1); an episode's reward is the sum of the
 * scavengers' rewards.
 */
import type { GamaEvaluationSettings } from '../../../src/core/protocols/gama/evaluation';
import { OptionReader } from '../../command-line/option-values';
import { evaluateCommand } from '../../evaluate/evaluate-command';
import { readSimulationOptions, SIMULATION_OPTIONS } from './simulation-options';

/** The `evaluate` command of GAMA. */
export const evaluateGamaCommand = evaluateCommand({
  protocol: 'gama',
  options: SIMULATION_OPTIONS.filter((option) => option.name !== 'seed'),
  description: [
    'The simulation is given as for run: --scenario, --cycles, --observation, --view, --no-terminal,',
    '--faithful-quirks. Each seed plays --rounds episodes (default 1) of the scenario with that seed; an',
    "episode's reward is the sum of the scavengers' rewards.",
  ].join('\n'),
  examples: [
    'evaluate gama --scenario C --cycles 200 --policies submissions/ --seeds 1..30 --out results.csv',
  ],
  defaultRounds: 1,
  settings(values) {
    const { scenario, seed: _seed, ...simulation } = readSimulationOptions(new OptionReader(values));
    const settings: GamaEvaluationSettings = { ...simulation, scenario: scenario.name };
    return Promise.resolve({ settings, label: scenario.name });
  },
});
