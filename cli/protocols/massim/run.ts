/**
 * `protoplay run massim`: a whole tournament in this process through `MassimMatchRunner` (the emulated
 * server, one agent connection per agent, in-memory pipes carrying the same frames TCP would), as fast as
 * the policies answer. Prints each simulation's scores. The host's transcript keeps only the messages a
 * step in progress still reads: the match streams to the `--transcript` file as it runs, if there is one,
 * and is not kept otherwise, so memory does not grow with the number of steps.
 */
import { MassimMatchRunner } from '../../../src/core/protocols/massim/runner';
import type { MassimDecide } from '../../../src/core/protocols/massim/client';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { MatchReporter } from './match-report';
import { resolveMatchConfig, teamNames } from './match-config';
import { ON_POLICY_ERROR } from './policy-options';
import { SEMANTICS } from './match-config-options';
import { prepareTeamPolicy, type TeamPolicy, type TeamPolicyFault, type TeamPolicyLog } from './team-policy';
import { TranscriptFileStream } from '../../transcript-stream';

/** Warnings printed about policy faults when the session goes on past them; the rest are counted. */
const MAX_FAULT_WARNINGS = 10;

/** Runs `protoplay run massim` with parsed options; resolves to the exit code. */
export async function runMassim(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const { config, description } = resolveMatchConfig(options, io.cwd);
  const seedText = options.string('seed');
  const seed = options.integer('seed', 0);
  const semantics = options.choice('semantics', SEMANTICS, 'protoplay');
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const onPolicyError = options.choice('on-policy-error', ON_POLICY_ERROR, 'stop');
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');

  const teams = teamNames(config);
  const byTeam = teams.map((team, i) => {
    const own = i === 0 ? 'policy-a' : i === 1 ? 'policy-b' : undefined;
    const option = own && options.string(own) !== undefined ? own : 'policy';
    return { team, option, argument: options.string(option, 'random') };
  });

  let stopFault: TeamPolicyFault | undefined;
  let faults = 0;
  const onFault = (fault: TeamPolicyFault) => {
    faults++;
    if (onPolicyError === 'stop') {
      stopFault ??= fault;
      runner.stop();
    } else if (faults <= MAX_FAULT_WARNINGS) {
      io.stderr.write(
        `warning: ${fault.message} (team ${fault.team} does no_action at step ${fault.step})\n`,
      );
    }
  };
  // Printed lines go into the transcript as they come, next to the requests they answer.
  const onLog = (log: TeamPolicyLog) =>
    runner.host.store.annotate('policy-log', { team: log.team, step: log.step, ...log.line });
  const policies: TeamPolicy[] = [];
  try {
    for (const { team, option, argument } of byTeam) {
      policies.push(
        await prepareTeamPolicy(argument, option, {
          cwd: io.cwd,
          seed,
          budgetMs,
          team,
          onFault,
          onLog,
        }),
      );
    }
  } catch (error) {
    for (const policy of policies) policy.dispose();
    throw error;
  }

  let stream: TranscriptFileStream | undefined;
  try {
    stream = transcriptPath ? new TranscriptFileStream(transcriptPath, 'massim', io.cwd) : undefined;
  } catch (error) {
    for (const policy of policies) policy.dispose();
    throw error;
  }
  const reporter = new MatchReporter({ io, json, stepLines: false });
  let hostViolations = 0;
  const decides: Record<string, MassimDecide> = {};
  policies.forEach((policy, i) => (decides[teams[i]!] = policy.decide));
  const runner: MassimMatchRunner = new MassimMatchRunner({
    config,
    teams: decides,
    ...(seedText !== undefined ? { seed } : {}),
    ...(semantics !== 'protoplay' ? { semantics } : {}),
    timing: 'virtual',
    startTime: context.now(),
    // World snapshots cost more than a step on large maps; only a transcript needs them.
    recordWorld: stream !== undefined,
    recording: { keep: false, ...(stream ? { sink: stream } : {}) },
    onHostEvent: (event) => {
      if (!reporter.hostEvent(event, config) && event.kind === 'violation') hostViolations++;
    },
  });
  const store = runner.host.store;
  for (const [i, policy] of policies.entries())
    for (const line of policy.loadLogs)
      store.annotate('policy-log', { team: teams[i], step: -1, ...line }, 0);

  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    runner.stop();
  };
  context.signal.addEventListener('abort', interrupt, { once: true });
  try {
    if (context.signal.aborted) interrupt();
    else await runner.run();
  } finally {
    context.signal.removeEventListener('abort', interrupt);
    reporter.stop();
    for (const policy of policies) policy.dispose();
  }

  const status = interrupted ? 'interrupted' : stopFault ? 'policy-error' : 'finished';
  const written = stream?.finish({
    startedAt: store.startedAt,
    meta: Object.assign(store.meta, {
      tool: 'protoplay run',
      config: description,
      ...Object.fromEntries(
        byTeam.map(({ team, argument }, i) => [`policy${team}`, policies[i]?.name ?? argument]),
      ),
    }),
    connections: [...store.connections],
  });
  if (json) {
    const document = {
      protocol: 'massim',
      config: description,
      seed: seedText !== undefined ? seed : null,
      semantics,
      policies: Object.fromEntries(byTeam.map(({ team }, i) => [team, policies[i]!.name])),
      status,
      simulations: reporter.results,
      ...(written ? { transcript: written } : {}),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    io.stdout.write(reporter.summary());
    if (faults > MAX_FAULT_WARNINGS && !stopFault)
      io.stderr.write(`${faults} policy faults in all (the first ${MAX_FAULT_WARNINGS} are shown)\n`);
  }
  if (hostViolations > 0 && !json)
    io.stderr.write(`note: the server ignored ${hostViolations} agent frame(s); see the transcript\n`);
  if (interrupted) {
    io.stderr.write(`interrupted${written ? '; the transcript keeps everything played so far' : ''}\n`);
    return ExitCode.interrupted;
  }
  if (stopFault) throw new CliError(ExitCode.policy, stopFault.message, { located: true });
  return ExitCode.ok;
}
