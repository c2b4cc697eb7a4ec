/**
 * `protoplay evaluate rddlsim`: the RDDL options of `run` (domain, instance, semantics), turned into the
 * settings of rddlsim's episode player. The files are read and the instance loaded here first, so a broken
 * file is reported (located) before any thread starts.
 */
import type { RddlEvaluationSettings } from '../../../src/core/protocols/rddlsim/evaluation';
import { evaluateCommand } from '../../evaluate/evaluate-command';
import { usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { runCommand } from './run-command';

const RDDL_OPTIONS = ['domain', 'instance', 'instance-name', 'semantics', 'rddlsim-quirks'];

/** The `evaluate` command of rddlsim. */
export const evaluateRddlsimCommand = evaluateCommand({
  protocol: 'rddlsim',
  options: runCommand.options.filter((option) => RDDL_OPTIONS.includes(option.name)),
  description: [
    'The RDDL is given as for run: --domain FILE|DIR (repeatable), --instance FILE, --instance-name NAME.',
    'Each seed is one session of --rounds rounds (default 1) with that seed: the rewards of seed S are those',
    'protoplay run rddlsim --seed S --rounds N prints for the same policy.',
  ].join('\n'),
  examples: [
    'evaluate rddlsim --domain rddl/ --instance-name sysadmin_inst_mdp__1 --policies submissions/ --seeds 1..100 --out results.csv',
    'evaluate rddlsim --domain sysadmin_mdp.rddl --instance sysadmin_inst_mdp__1.rddl --policies old.ts new.ts --seeds 1..200 --json',
  ],
  defaultRounds: 1,
  async settings(values, context) {
    const options = new OptionReader(values);
    const domains = options.list('domain');
    const instanceFiles = options.list('instance');
    if (domains.length + instanceFiles.length === 0) {
      throw usageError(
        'give the RDDL: --domain FILE|DIR and --instance FILE (see protoplay evaluate rddlsim --help)',
      );
    }
    const { RddlLibrary } = await import('./rddl-library');
    const library = await RddlLibrary.fromPaths([...domains, ...instanceFiles], {
      cwd: context.io.cwd,
      mode: 'strict',
    });
    const instance = options.string('instance-name') ?? onlyInstance(library, instanceFiles);
    const semantics = options.choice('semantics', ['protoplay', 'rddlsim'] as const, 'protoplay');
    library.load(instance, { rddlsimSemantics: semantics === 'rddlsim' });
    const settings: RddlEvaluationSettings = {
      files: library.sources(instance),
      instance,
      semantics,
      rddlsimQuirks: options.flag('rddlsim-quirks'),
    };
    return { settings, label: instance };
  },
});

function onlyInstance(
  library: { instanceNames(): string[]; instancesInFiles(paths: readonly string[]): string[] },
  instanceFiles: readonly string[],
): string {
  const candidates = instanceFiles.length ? library.instancesInFiles(instanceFiles) : library.instanceNames();
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw usageError('the RDDL files define no instance; add --instance FILE');
  const shown = candidates.length > 12 ? `${candidates.slice(0, 12).join(', ')}, ...` : candidates.join(', ');
  throw usageError(
    `the files define ${candidates.length} instances (${shown}); choose one with --instance-name`,
  );
}
