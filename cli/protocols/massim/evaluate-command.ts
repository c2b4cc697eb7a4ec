/**
 * `protoplay evaluate massim`: the configuration options of `run massim` (a file, or a quick match whose
 * steps and agents per team may be made small), and the opponent. Each seed plays two matches with that
 * seed, the policy as the first team and then as the second, against the opponent; a match's reward is
 * the policy's team score.
 */
import type { MassimEvaluationSettings } from '../../../src/core/protocols/massim/evaluation';
import type { OptionSpec } from '../../command-line/command-spec';
import { usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { evaluateCommand } from '../../evaluate/evaluate-command';
import { MATCH_CONFIG_OPTIONS } from './match-config-options';

const OPPONENT_OPTION: OptionSpec = {
  name: 'opponent',
  type: 'string',
  valueName: 'NAME|FILE',
  description:
    'the other team: skip, random (default), explorer, fetcher, or a trusted .ts/.js team policy (it runs beside each policy, outside its budget)',
};

/** The `evaluate` command of MASSim. */
export const evaluateMassimCommand = evaluateCommand({
  protocol: 'massim',
  options: [...MATCH_CONFIG_OPTIONS.filter((option) => option.name !== 'teams'), OPPONENT_OPTION],
  description: [
    'The match is given as for run: --config FILE, or a quick one with --agents (per team, default 5),',
    '--steps (default 200) and --grid (default 40x40); small values make short matches. Each seed plays',
    'two matches with that seed against --opponent: the policy as team A, then as team B (the same world,',
    "sides swapped). A match's reward is the policy's team score, summed over the match's simulations.",
  ].join('\n'),
  examples: [
    'evaluate massim --agents 3 --steps 100 --grid 20x20 --policies submissions/ --seeds 1..20 --opponent fetcher',
  ],
  defaultRounds: 2,
  async settings(values, context) {
    const options = new OptionReader(values);
    const rounds = options.string('rounds');
    if (rounds !== undefined && rounds !== '2')
      throw usageError(`--rounds: a MASSim seed always plays 2 matches (one on each side), got '${rounds}'`);
    const { resolveMatchConfig } = await import('./match-config');
    const { teamPolicySource } = await import('./team-policy');
    const { config, description } = resolveMatchConfig(options, context.io.cwd);
    if (config.teams.length !== 2)
      throw usageError(
        `a MASSim evaluation plays two teams (the policy's and the opponent's); ${description} has ${config.teams.length}`,
      );
    const { seed: _seed, ...opponent } = await teamPolicySource(
      options.string('opponent', 'random'),
      'opponent',
      { cwd: context.io.cwd, seed: 0 },
    );
    const settings: MassimEvaluationSettings = { config, opponent };
    return { settings, label: `${description} vs ${opponent.fileName}` };
  },
});
