/**
 * `protoplay connect aisys`: reads the agent's config, loads the policy (a syntax error stops here, before
 * any request), plays through the command line's HTTP client (`dialPlay`) until the run limit, an error
 * or Ctrl-C, writes the transcript whatever happened, and turns the outcome into a summary and an exit
 * code.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AisysClient, outcomeText, type AisysClientOutcome } from '../../../src/core/protocols/aisys/client';
import type { AgentConfig } from '../../../src/core/protocols/aisys/messages';
import { aisysProtocol } from '../../../src/core/protocols/aisys/protocol';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { dialPlay } from '../../play/transports';
import { writeTranscriptFile } from '../../transcript-file';
import { extraRunsRows, pastLimitWords } from './extra-runs';
import {
  AisysRoundReporter,
  fetchServerRating,
  serverRatingJson,
  serverRatingRow,
  type ServerRatingReading,
} from './outcome-report';
import { aisysPolicyArgument, prepareAisysPolicy } from './policies';
import { readParallelRuns } from './shared-options';

/** Runs `protoplay connect aisys` with parsed options; resolves to the exit code. */
export async function connectAisys(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const config = await agentConfig(options, io.cwd);
  const seed = options.integer('seed', 0);
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const runLimit = options.string('runs') === undefined ? undefined : options.integer('runs', 0, { min: 1 });
  const timeoutSeconds = options.number('timeout', 30, { min: 0 });
  const parallelRuns = readParallelRuns(options);
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');
  const verbose = options.flag('verbose');

  const policy = await prepareAisysPolicy(aisysPolicyArgument(options.string('policy'), config.env), {
    cwd: io.cwd,
    seed,
    budgetMs,
    env: config.env,
  });
  const recorder = new TranscriptRecorder({
    protocol: 'aisys',
    now: context.now,
    meta: {
      origin: 'protoplay connect',
      server: config.url,
      env: config.env,
      agent: config.agent,
      policy: policy.name,
    },
  });
  for (const line of policy.loadLogs) recorder.annotate('policy-log', line);
  const reporter = new AisysRoundReporter({
    io,
    json,
    label: `${config.env}/${config.agent}`,
    ...(runLimit ? { totalRounds: runLimit } : {}),
  });
  const played: { run: string; outcome: unknown; actions: number }[] = [];
  const client = new AisysClient({
    agent: config.agent,
    pwd: config.pwd,
    env: config.env,
    url: config.url,
    decide: policy.decide,
    parallelRuns,
    ...(runLimit !== undefined ? { runLimit } : {}),
    abandonOldRuns: options.flag('abandon-old-runs'),
    clientName: options.string('client-name', 'protoplay'),
    onEvent: (event) => {
      switch (event.kind) {
        case 'run-finished': {
          played.push({ run: event.run, outcome: event.outcome, actions: event.actions });
          const reward = typeof event.outcome === 'number' ? event.outcome : Number(event.outcome);
          // Several runs can finish in the last response: the limit is a minimum, as for client.py.
          const pastTotal = pastLimitWords(played.length, runLimit);
          reporter.round({
            round: played.length,
            reward,
            turns: event.actions,
            counted: true,
            ...(pastTotal ? { pastTotal } : {}),
          });
          break;
        }
        case 'message':
          if (!json && (verbose || event.message.type !== 'info'))
            io.stderr.write(`${event.message.type}: run ${event.message.run}: ${event.message.content}\n`);
          break;
        case 'retry':
          io.stderr.write(`the server is busy (503); retrying in ${event.delayMs / 1000} s\n`);
          break;
        case 'refused-again':
          io.stderr.write(
            `run ${event.run}: the server refused the action ${event.action} ${event.refusals === 1 ? 'once' : `${event.refusals} times in a row`} and the policy gives it again: the request waits ${event.delayMs / 1000} s\n`,
          );
          break;
        case 'policy-logs':
          for (const line of event.logs) recorder.annotate('policy-log', line);
          break;
      }
    },
  });

  let end;
  try {
    end = await dialPlay(aisysProtocol, client, {
      url: config.url,
      recorder,
      connection: `${config.env}/${config.agent}`,
      timeoutMs: timeoutSeconds * 1000,
      signal: context.signal,
    });
  } finally {
    reporter.stop();
    policy.dispose();
  }
  const outcome: AisysClientOutcome =
    end.closedBy === 'interrupted'
      ? { kind: 'stopped', reason: 'interrupted' }
      : (client.outcome ?? { kind: 'connection-error', message: end.reason });
  const written = transcriptPath
    ? await writeTranscriptFile(transcriptPath, recorder.transcript, io.cwd)
    : undefined;
  // Once the run limit is reached, the rating the server shows for the agent (its /act answers carry none).
  const rating: ServerRatingReading | undefined =
    outcome.kind === 'finished'
      ? await fetchServerRating({
          url: config.url,
          env: config.env,
          agent: config.agent,
          timeoutMs: timeoutSeconds * 1000,
          signal: context.signal,
        })
      : undefined;
  reporter.finish(
    {
      protocol: 'aisys',
      server: config.url,
      env: config.env,
      agent: config.agent,
      policy: policy.name,
      status: outcome.kind === 'stopped' ? 'interrupted' : outcome.kind,
      ...(runLimit !== undefined ? { runLimit } : {}),
      ...(outcome.kind === 'finished' || outcome.kind === 'stopped' ? {} : { error: outcomeText(outcome) }),
      runs: played,
      ...(written ? { transcript: written } : {}),
      ...(rating ? serverRatingJson(rating) : {}),
    },
    undefined,
    [...extraRunsRows(played.length, runLimit), ...(rating ? [serverRatingRow(rating, played.length)] : [])],
  );
  const kept = written ? ` (transcript written to ${transcriptPath})` : '';
  switch (outcome.kind) {
    case 'finished':
      return ExitCode.ok;
    case 'stopped':
      io.stderr.write(`interrupted${written ? '; the transcript keeps everything played so far' : ''}\n`);
      return ExitCode.interrupted;
    case 'policy-error':
      throw new CliError(ExitCode.policy, `${policy.fault ?? outcome.message}${kept}`, {
        located: policy.fault !== undefined,
      });
    case 'connection-error':
      throw new CliError(ExitCode.connection, `cannot reach ${config.url}: ${outcome.message}${kept}`);
    case 'http-error':
      throw new CliError(
        ExitCode.failure,
        `the server answered ${outcome.status}: ${outcome.message}${kept}`,
      );
    case 'protocol-error':
      throw new CliError(ExitCode.failure, `${outcome.message}${kept}`);
  }
}

/** The agent's config: the file, with the options overriding its fields. */
async function agentConfig(options: OptionReader, cwd: string): Promise<AgentConfig> {
  const path = options.string('config');
  let file: Partial<AgentConfig> = {};
  if (path !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(cwd, path), 'utf8');
    } catch (error) {
      throw usageError(
        `cannot read the agent config '${path}': ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
    try {
      file = JSON.parse(text) as Partial<AgentConfig>;
    } catch (error) {
      throw usageError(`the agent config '${path}' is not JSON: ${(error as Error).message}`);
    }
  }
  const field = (name: keyof AgentConfig): string => {
    const value = options.string(name) ?? file[name];
    if (typeof value !== 'string' || value === '')
      throw usageError(`the agent's ${name} is missing: give --config FILE or --${name}`);
    return value;
  };
  return { agent: field('agent'), env: field('env'), pwd: field('pwd'), url: field('url') };
}
