/**
 * `protoplay evaluate aisys`: the environment options of `run aisys`, turned into the settings of aisys's
 * episode player. Each seed is one session until `--rounds` runs have finished; each run's outcome is a
 * reward.
 */
import { AISYS_ENVIRONMENTS, findAisysEnvironment } from '../../../src/core/protocols/aisys/environments';
import type { AisysEvaluationSettings } from '../../../src/core/protocols/aisys/evaluation';
import { usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { evaluateCommand } from '../../evaluate/evaluate-command';
import { runCommand } from './run-command';
import { readParallelRuns } from './shared-options';

const ENVIRONMENT_OPTIONS = ['env', 'parallel-runs', 'no-parallel-runs', 'no-faithful-bugs'];

/** The `evaluate` command of aisys. */
export const evaluateAisysCommand = evaluateCommand({
  protocol: 'aisys',
  options: runCommand.options.filter((option) => ENVIRONMENT_OPTIONS.includes(option.name)),
  description: [
    'The environment is given as for run: --env nim|nim-strong|wumpus-cave. Each seed is one session of',
    'the emulated server with that seed until --rounds runs have finished (default 10); each run is one',
    'reward, its outcome.',
  ].join('\n'),
  examples: ['evaluate aisys --env nim --policies submissions/ --seeds 1..50 --rounds 20 --out results.csv'],
  defaultRounds: 10,
  settings(values) {
    const options = new OptionReader(values);
    const env = options.string('env', 'nim');
    if (!findAisysEnvironment(env))
      throw usageError(
        `unknown environment '${env}'; one of ${AISYS_ENVIRONMENTS.map((e) => e.id).join(', ')}`,
      );
    const settings: AisysEvaluationSettings = {
      env,
      parallelRuns: readParallelRuns(options),
      faithfulBugs: !options.flag('no-faithful-bugs'),
    };
    return Promise.resolve({ settings, label: env });
  },
});
