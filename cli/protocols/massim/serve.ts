/**
 * `protoplay serve massim`: a MASSim server for real agents. Loads the configuration, listens, starts the
 * tournament when the launch setting says, logs logins, ignored frames and every step, prints the scores,
 * writes one transcript per match when recording, and exits when the tournament is over (as the real
 * server does) or on Ctrl-C. The server is the command line's TCP server (`listenPlay`), stopped by
 * `serveUntilStopped` like every `serve`.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MassimServerConfig } from '../../../src/core/envs/massim/api';
import { MassimHost, type MassimHostEvent } from '../../../src/core/protocols/massim/host';
import { MassimHostEndpoint } from '../../../src/core/protocols/massim/host-endpoint';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { readTcpLimits } from '../../net/tcp-limit-options';
import { DEFAULT_TCP_SERVER_LIMITS } from '../../net/tcp-server';
import { listenPlay, serveUntilStopped } from '../../play/transports';
import { timeOfDay } from '../../report/time-of-day';
import { agentsOfFirstSimulation, LaunchControl, readLaunchSetting } from './launch-control';
import { resolveMatchConfig } from './match-config';
import { SEMANTICS } from './match-config-options';
import { fileStamp, MatchFiles } from './match-files';
import { MatchReporter } from './match-report';

/** Where the operator types (ENTER, pause, continue); the command passes standard input. */
export interface ServeConsole {
  /**
   * The console, asked for only when someone can type into it (a terminal) or the launch setting waits
   * for ENTER.
   */
  stdin?: () => NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Runs `protoplay serve massim` with parsed options; resolves to the exit code once the server stopped. */
export async function serveMassim(
  values: OptionValues,
  context: CommandContext,
  { stdin }: ServeConsole = {},
): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const { config, description, fromFile } = resolveMatchConfig(options, io.cwd);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', fromFile ? config.server.port : 12300, { min: 0, max: 65535 });
  const seed = options.string('seed') === undefined ? undefined : options.integer('seed', 0);
  const semantics = options.choice('semantics', SEMANTICS, 'protoplay');
  const launch = readLaunchSetting(
    options.string('launch') ?? (fromFile ? config.server.launch : 'connected'),
  );
  const record = options.string('record');
  const quiet = options.flag('quiet');
  const limits = readTcpLimits(options);
  // The real server discards a frame longer than maxPacketLength and reads on; one that never ends is
  // dropped here rather than held.
  const maxFrameBytes = options.integer(
    'max-frame-bytes',
    Math.max(DEFAULT_TCP_SERVER_LIMITS.maxFrameBytes, config.server.maxPacketLength),
    { min: config.server.maxPacketLength },
  );
  const recordDir = record ? resolve(io.cwd, record) : undefined;
  if (recordDir) {
    try {
      mkdirSync(recordDir, { recursive: true });
    } catch (error) {
      throw new CliError(ExitCode.failure, `cannot create '${record}': ${(error as Error).message}`);
    }
  }

  const reporter = new MatchReporter({ io, json: false, stepLines: !quiet });
  const log = (line: string) => {
    if (!quiet) reporter.line(`${timeOfDay(context.now())} ${line}`);
  };
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolveDone) => (finished = resolveDone));
  let matchFiles: MatchFiles | undefined;
  const onHostEvent = (event: MassimHostEvent) => {
    matchFiles?.onHostEvent(event);
    if (reporter.hostEvent(event, config)) return;
    switch (event.kind) {
      case 'violation': {
        const { violation } = event;
        // A refused login is logged with the address it came from.
        if (violation.rule === 'massim.auth.rejected') return;
        const what = violation.severity === 'fatal' ? 'no longer read' : 'ignored';
        log(
          `${violation.conn}: message ${violation.index} ${what}: ${violation.message} [${violation.rule}]`,
        );
        return;
      }
      case 'race':
        log(`${event.note.conn}: ${event.note.message} [${event.note.rule}]`);
        return;
      case 'finished':
        finished();
        return;
    }
  };

  const massimHost = new MassimHost({
    config,
    ...(seed !== undefined ? { seed } : {}),
    ...(semantics !== 'protoplay' ? { semantics } : {}),
    faithfulRaces: options.flag('faithful-races'),
    pacing: options.choice('pacing', ['exact', 'real-server'] as const, 'exact'),
    recordWorld: recordDir !== undefined,
    onEvent: onHostEvent,
  });
  const endpoint = new MassimHostEndpoint(massimHost, {
    log,
    onAgentsChanged: () => launchControl.agentsChanged(endpoint.loggedIn),
  });
  const server = await listenPlay(massimProtocol, endpoint, {
    host,
    port,
    limits: { ...limits, maxFrameBytes },
    log,
  });
  const store = massimHost.store;
  if (recordDir) {
    matchFiles = new MatchFiles({
      store,
      dir: recordDir,
      stamp: fileStamp(new Date(context.now())),
      meta: {
        source: 'protoplay serve',
        config: description,
        ...(seed !== undefined ? { seed } : {}),
        ...(semantics !== 'protoplay' ? { semantics } : {}),
      },
      log: (line) => reporter.line(`${timeOfDay(context.now())} ${line}`),
    });
  }
  const teams = config.teams.map((team) => team.name).join(', ');
  io.stdout.write(
    `MASSim server listening on ${host}:${server.port} (${description}; teams ${teams}, ` +
      `accounts ${accountExample(config)}; agent timeout ${config.server.agentTimeout} ms` +
      `${record ? `; recording to ${record}` : ''})\n`,
  );
  const terminal = stdin?.();
  const input = terminal && (terminal.isTTY || launch.kind === 'key') ? terminal : undefined;
  const launchControl: LaunchControl = new LaunchControl({
    setting: launch,
    expected: agentsOfFirstSimulation(config),
    ...(input ? { console: input } : {}),
    start: () => massimHost.start(),
    pause: () => massimHost.pause(),
    resume: () => massimHost.resume(),
    log,
    now: context.now,
  });

  let wasInterrupted = false;
  await serveUntilStopped(
    {
      close: async () => {
        wasInterrupted = context.signal.aborted && massimHost.status.phase !== 'finished';
        launchControl.dispose();
        if (wasInterrupted) {
          log('stopping: closing every connection');
          massimHost.shutdown();
        }
        matchFiles?.finish();
        await server.close('the server stopped');
      },
    },
    context.signal,
    { reached: done, reason: 'the tournament is over' },
  );
  reporter.stop();
  io.stdout.write(reporter.summary());
  return wasInterrupted ? ExitCode.interrupted : ExitCode.ok;
}

/** `agentA1..agentA5 / agentB1..agentB5, password 1`: what agents log in with. */
function accountExample(config: MassimServerConfig): string {
  const size = Math.max(...config.match.map((sim) => sim.agentsPerTeam));
  const names = config.teams.map((team) => `${team.prefix}${team.name}1..${team.prefix}${team.name}${size}`);
  const passwords = [...new Set(config.teams.map((team) => team.password))];
  return `${names.join(' / ')}, password ${passwords.length === 1 ? passwords[0] : 'as configured'}`;
}
