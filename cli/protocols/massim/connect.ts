/**
 * `protoplay connect massim`: resolves the options, loads the team policy (a syntax error stops here,
 * before connecting), plays the team over TCP with live progress, writes the transcript whatever
 * happened, and turns the outcome into the scores and an exit code.
 */
import { TranscriptStore } from '../../../src/core/transcript/store/store';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { MatchReporter } from './match-report';
import { ON_POLICY_ERROR } from './policy-options';
import { gatherSteps } from '../../../src/core/protocols/massim/step-gatherer';
import { TeamSession } from './team-session';
import { prepareTeamPolicy, type TeamPolicyFault, type TeamPolicyLog } from './team-policy';
import { writeTranscriptJsonFile } from '../../transcript-file';

/** How long a request waits for the rest of its team's step before the policy gets what arrived. */
const GATHER_WINDOW_MS = 20;
/** Warnings printed when the session goes on past policy faults; the rest are counted. */
const MAX_WARNINGS = 10;

/** Runs `protoplay connect massim` with parsed options; resolves to the exit code. */
export async function connectMassim(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const team = options.required('team', 'the team to play, e.g. A');
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 12300, { min: 1, max: 65535 });
  const agents = options.integer('agents', 1, { min: 1, max: 1000 });
  const prefix = options.string('prefix', 'agent');
  const password = options.string('password', '1');
  const timeoutSeconds = options.number('timeout', 30, { min: 0 });
  const seed = options.integer('seed', 0);
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const onPolicyError = options.choice('on-policy-error', ON_POLICY_ERROR, 'stop');
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');
  const quiet = options.flag('quiet');
  if (!/^[A-Za-z0-9_-]+$/.test(team)) throw usageError(`--team must be a team name such as A, got '${team}'`);
  const accounts = Array.from({ length: agents }, (_, i) => `${prefix}${team}${i + 1}`);

  let warnings = 0;
  const warn = (message: string) => {
    if (++warnings <= MAX_WARNINGS) io.stderr.write(`warning: ${message}\n`);
  };
  let stopFault: TeamPolicyFault | undefined;
  const onFault = (fault: TeamPolicyFault) => {
    if (onPolicyError === 'stop') {
      stopFault ??= fault;
      session.fail(ExitCode.policy, fault.message);
    } else warn(`${fault.message} (team ${fault.team} does no_action at step ${fault.step})`);
  };
  // Printed lines go into the transcript as they come, next to the requests they answer.
  const onLog = (log: TeamPolicyLog) =>
    store.annotate('policy-log', { team: log.team, step: log.step, ...log.line });
  const policy = await prepareTeamPolicy(options.string('policy', 'random'), 'policy', {
    cwd: io.cwd,
    seed,
    budgetMs,
    team,
    onFault,
    onLog,
  });

  const store = new TranscriptStore({
    protocol: 'massim',
    startedAt: context.now(),
    meta: {
      origin: 'protoplay connect',
      server: `${host}:${port}`,
      team,
      agents,
      policy: policy.name,
      seed,
    },
  });
  for (const line of policy.loadLogs) store.annotate('policy-log', { team, step: -1, ...line });
  const reporter = new MatchReporter({ io, json, stepLines: !quiet });
  // The policy answers a step in one call: hold each step's requests until the team's are in.
  const teamDecide = gatherSteps(policy.decide, {
    expected: () => session.playing,
    windowMs: GATHER_WINDOW_MS,
  });
  const session: TeamSession = new TeamSession({
    host,
    port,
    team,
    accounts,
    password,
    decide: (request) => {
      session.observeScore(session.simulation, request.step, request.percept.score);
      return teamDecide(request);
    },
    timeoutMs: timeoutSeconds * 1000,
    store,
    now: context.now,
    signal: context.signal,
    onEvent: (event) => {
      switch (event.kind) {
        case 'simulation-start':
          reporter.simulationStarted({ number: event.simulation, teams: [team], steps: event.steps });
          return;
        case 'step':
          reporter.step(event.step, { [team]: event.score });
          return;
        case 'simulation-end':
          reporter.simulationEnded({ [team]: event.score }, event.ranking);
          return;
        case 'warning':
          warn(event.message);
          return;
      }
    },
  });
  if (!quiet && !json)
    io.stdout.write(`connecting ${agents} agent(s) of team ${team} to ${host}:${port} (${accounts[0]}..)\n`);
  let outcome;
  try {
    outcome = await session.play();
  } finally {
    reporter.stop();
    policy.dispose();
  }

  const written = transcriptPath ? writeTranscriptJsonFile(transcriptPath, store, io.cwd) : undefined;
  const status = outcome.kind === 'failed' && stopFault ? 'policy-error' : outcome.kind;
  if (json) {
    const document = {
      protocol: 'massim',
      server: `${host}:${port}`,
      team,
      agents,
      policy: policy.name,
      status,
      ...(outcome.kind === 'failed' ? { error: outcome.message } : {}),
      simulations: reporter.results,
      ...(written ? { transcript: written } : {}),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else io.stdout.write(reporter.summary());
  if (warnings > MAX_WARNINGS)
    io.stderr.write(`${warnings} warnings in all (the first ${MAX_WARNINGS} are shown)\n`);
  switch (outcome.kind) {
    case 'finished':
      if (outcome.byesLost > 0 && !json)
        io.stderr.write(`${outcome.byesLost} agent(s) saw the connection close after sim-end without bye\n`);
      return ExitCode.ok;
    case 'interrupted':
      io.stderr.write(`interrupted${written ? '; the transcript keeps everything played so far' : ''}\n`);
      return ExitCode.interrupted;
    case 'failed':
      throw new CliError(
        outcome.exitCode,
        written ? `${outcome.message} (transcript written to ${transcriptPath})` : outcome.message,
        { located: outcome.exitCode === ExitCode.policy },
      );
  }
}
