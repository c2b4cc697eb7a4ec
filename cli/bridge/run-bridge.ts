/**
 * `protoplay bridge`: reads the targets, listens, origins and limits, starts the bridge, prints the link
 * that carries the token, and serves until Ctrl-C.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { bridgeLink } from '../../src/core/bridge/bridge-link';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { createAccessToken } from './access-token';
import {
  checkUniqueNames,
  DEFAULT_LIMITS,
  DEFAULT_ORIGINS,
  endpointUrl,
  isLoopbackHost,
  normalizeOrigin,
  parseConfigFile,
  parseListen,
  parseTarget,
  type BridgeConfig,
  type ConfigFileContents,
} from './bridge-config';
import { BridgeServer } from './bridge-server';

/** Reads the command line (and config file) into the bridge's configuration; usage errors name the option. */
export async function readBridgeConfig(values: OptionValues, cwd: string): Promise<BridgeConfig> {
  const options = new OptionReader(values);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 8787, { min: 0, max: 65535 });
  let fromFile: ConfigFileContents = { targets: [], listens: [], origins: [], limits: {} };
  const configPath = options.string('config');
  if (configPath !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(cwd, configPath), 'utf8');
    } catch (error) {
      throw usageError(
        `cannot read '${configPath}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    fromFile = parseConfigFile(text, configPath, PROTOCOLS, host);
  }
  const targets = [
    ...fromFile.targets,
    ...options.list('target').map((text) => parseTarget(text, PROTOCOLS)),
  ];
  const listens = [
    ...fromFile.listens,
    ...options.list('listen').map((text) => parseListen(text, PROTOCOLS, host)),
  ];
  checkUniqueNames(targets, listens);
  const origins = [...fromFile.origins, ...options.list('origin').map((text) => normalizeOrigin(text))];
  const seconds = (name: string, fallbackMs: number) =>
    options.integer(name, fallbackMs / 1000, { min: 1 }) * 1000;
  const limits = { ...DEFAULT_LIMITS, ...fromFile.limits };
  return {
    host,
    port,
    origins: origins.length > 0 ? [...new Set(origins)] : [...DEFAULT_ORIGINS],
    targets,
    listens,
    limits: {
      ...limits,
      idleTimeoutMs: seconds('idle-timeout', limits.idleTimeoutMs),
      responseTimeoutMs: seconds('response-timeout', limits.responseTimeoutMs),
      websocketFrameBytes: options.integer('max-frame', limits.websocketFrameBytes, { min: 1 }),
      httpBodyBytes: options.integer('max-body', limits.httpBodyBytes, { min: 1 }),
      bufferBytes: options.integer('max-buffer', limits.bufferBytes, { min: 1024 }),
    },
  };
}

/** Runs `protoplay bridge`; resolves to the exit code once stopped. */
export async function runBridge(
  values: OptionValues,
  positionals: readonly string[],
  { io, signal }: CommandContext,
): Promise<number> {
  if (positionals.length > 0)
    throw usageError(
      `protoplay bridge takes no file ('${positionals[0]}'); name servers with --target NAME=ADDRESS`,
    );
  const config = await readBridgeConfig(values, io.cwd);
  const options = new OptionReader(values);
  const page = options.string('page', `${config.origins[0]}/`);
  const quiet = options.flag('quiet');
  if (!isLoopbackHost(config.host))
    io.stderr.write(
      `warning: the bridge listens on ${config.host}, not only on this machine: anyone who can reach it and learns the link can use your targets and listen ports\n`,
    );
  const token = createAccessToken();
  let server: BridgeServer;
  try {
    server = await BridgeServer.start({
      ...config,
      token,
      log: (line) => {
        if (!quiet) io.stdout.write(`${line}\n`);
      },
    });
  } catch (error) {
    throw new CliError(ExitCode.connection, (error as Error).message);
  }
  const describe = (items: readonly { name: string; url: string }[]) =>
    items.length ? items.map((item) => `${item.name} ${item.url}`).join(', ') : 'none';
  io.stdout.write(
    [
      `protoplay bridge on ${server.url}`,
      `  targets: ${describe(config.targets.map((target) => ({ name: target.name, url: endpointUrl(target) })))}`,
      `  listens: ${describe(server.listens)}`,
      `  pages from: ${config.origins.join(', ')}`,
      'Open the playground with this link (it carries the token: whoever has it can use the bridge):',
      `  ${bridgeLink(page, { url: server.url, token })}`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((stop) => {
    if (signal.aborted) stop();
    signal.addEventListener('abort', () => stop(), { once: true });
  });
  await server.close();
  if (!quiet) io.stdout.write('bridge stopped\n');
  return ExitCode.ok;
}
