/**
 * `protoplay serve aisys`: sets up the emulated server (environments, an agent, the admin password) and
 * serves it on the command line's HTTP server (`listenPlay`: the host keeps its agents' sessions itself),
 * writes the agent's config file, logs what happens, and stops on Ctrl-C, writing the transcript.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AISYS_ENVIRONMENTS, findAisysEnvironment } from '../../../src/core/protocols/aisys/environments';
import { AisysHost, type AisysHostEvent } from '../../../src/core/protocols/aisys/host';
import type { AgentConfig } from '../../../src/core/protocols/aisys/messages';
import { aisysProtocol } from '../../../src/core/protocols/aisys/protocol';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { readTcpLimits } from '../../net/tcp-limit-options';
import { listenPlay, serveUntilStopped } from '../../play/transports';
import { timeOfDay } from '../../report/time-of-day';
import { writeTranscriptFile } from '../../transcript-file';

/** Runs `protoplay serve aisys` with parsed options; resolves to the exit code once the server stopped. */
export async function serveAisys(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 5000, { min: 0, max: 65535 });
  const envIds = options.list('env');
  const envs = (envIds.length ? envIds : AISYS_ENVIRONMENTS.map((e) => e.id)).map((id) => {
    const preset = findAisysEnvironment(id);
    if (!preset)
      throw usageError(
        `unknown environment '${id}'; one of ${AISYS_ENVIRONMENTS.map((e) => e.id).join(', ')}`,
      );
    return preset;
  });
  const agent = options.string('agent', 'agent');
  const agentConfigPath = options.string('agent-config');
  const seed = options.integer('seed', 0);
  const recordPath = options.string('record');
  const quiet = options.flag('quiet');
  const adminPassword = options.string('admin-password');
  const limits = readTcpLimits(options);

  const log = (line: string) => {
    if (!quiet) io.stdout.write(`${timeOfDay(context.now())} ${line}\n`);
  };
  const emulated = new AisysHost({
    seed,
    faithfulBugs: !options.flag('no-faithful-bugs'),
    ...(adminPassword !== undefined ? { adminPassword } : {}),
    onEvent: (event) => logEvent(event, log),
  });
  const passwords = envs.map((env) => {
    emulated.addEnvironment(env.id, env.envClass, env.config, env.label);
    return emulated.addAgent(env.id, agent);
  });
  const recorder = recordPath
    ? new TranscriptRecorder({
        protocol: 'aisys',
        now: context.now,
        meta: { origin: 'protoplay serve', seed },
      })
    : undefined;

  const server = await listenPlay(aisysProtocol, emulated, {
    host,
    port,
    limits,
    ...(recorder ? { recorder } : {}),
    endpointKeepsSessions: true,
    log: (line) => io.stderr.write(`${line}\n`),
  });
  const url = server.address;
  io.stdout.write(
    `aisys server listening on ${url} (environments ${envs.map((env) => env.id).join(', ')})\n`,
  );
  envs.forEach((env, i) => log(`agent '${agent}' in ${env.id}: password ${passwords[i]}`));
  if (agentConfigPath) {
    const config: AgentConfig = { agent, env: envs[0]!.id, pwd: passwords[0]!, url };
    const path = resolve(io.cwd, agentConfigPath);
    try {
      await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
    } catch (error) {
      await server.close('the server stopped');
      throw new CliError(ExitCode.failure, `cannot write '${agentConfigPath}': ${(error as Error).message}`);
    }
    log(`agent config written to ${agentConfigPath}`);
  }

  // No limit: the course server runs until it is stopped.
  await serveUntilStopped(server, context.signal);
  if (recorder && recordPath) await writeTranscriptFile(recordPath, recorder.transcript, io.cwd);
  log(`stopped after ${server.activity().exchanges} request(s)`);
  return ExitCode.ok;
}

/** One log line per finished run, refused request and admin change; nothing for ordinary answers. */
function logEvent(event: AisysHostEvent, log: (line: string) => void): void {
  if (event.kind === 'admin') {
    log(`${event.action} ${event.env}${event.agent !== undefined ? `/${event.agent}` : ''}`);
    return;
  }
  const who = `${event.env}/${event.agent ?? '?'}`;
  if (event.crash) log(`${who}: the request crashed the server (${event.crash})`);
  else if (event.status !== 200) log(`${who}: refused with ${event.status}`);
  for (const [run, outcome] of Object.entries(event.finished))
    log(`${who}: run ${run} finished with ${JSON.stringify(outcome)}`);
}
