/**
 * The generic command line: `protoplay <command> <protocol> [options]`. It finds the protocol's command
 * spec, parses the options with Node's `util.parseArgs` as the spec declares them, prints help, runs the
 * handler and turns whatever it throws into one error line and a documented exit code. Nothing here knows
 * any protocol: protocols register their commands (see `ProtocolCommands`).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeError, ProtoplayError } from '../../src/core/errors';
import {
  COMMAND_NAMES,
  type CommandContext,
  type CommandName,
  type OptionSpec,
  type ProtocolCommands,
  type ToolCommandSpec,
} from './command-spec';
import { CliError, ExitCode, usageError } from './exit-codes';
import { COMMON_OPTIONS, commandHelp, generalHelp, protocolCommandHelp, toolHelp } from './help';
import type { CliIo } from './io';

/** What the dispatcher needs besides the arguments. */
export interface DispatchEnvironment {
  io: CliIo;
  /** Aborted on Ctrl-C; defaults to a signal that never aborts. */
  signal?: AbortSignal;
  /** Wall clock (default `Date.now`). */
  now?: () => number;
}

const HELP_WORDS = new Set(['--help', '-h', 'help']);

/** Runs one command line (without `node` and the script); resolves to the exit code. */
export async function runCommandLine(
  argv: readonly string[],
  protocols: readonly ProtocolCommands[],
  environment: DispatchEnvironment,
  tools: readonly ToolCommandSpec[] = [],
): Promise<number> {
  const { io } = environment;
  const debug = argv.includes('--debug');
  try {
    return await dispatch(argv, protocols, tools, environment, debug);
  } catch (error) {
    io.stderr.write(`${errorLine(error)}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return error instanceof CliError ? error.exitCode : ExitCode.failure;
  }
}

async function dispatch(
  argv: readonly string[],
  protocols: readonly ProtocolCommands[],
  tools: readonly ToolCommandSpec[],
  { io, signal = new AbortController().signal, now = Date.now }: DispatchEnvironment,
  debug: boolean,
): Promise<number> {
  const [commandWord, protocolWord] = argv;
  if (commandWord === undefined || HELP_WORDS.has(commandWord)) {
    (commandWord === undefined ? io.stderr : io.stdout).write(generalHelp(protocols, tools));
    return commandWord === undefined ? ExitCode.usage : ExitCode.ok;
  }
  const tool = tools.find((candidate) => candidate.name === commandWord);
  if (tool) {
    const { values, positionals } = parseOptions(
      argv.slice(1),
      [...tool.options, ...COMMON_OPTIONS],
      `protoplay ${tool.name}`,
      true,
    );
    if (values.help === true) {
      io.stdout.write(toolHelp(tool, await tool.helpDetails?.()));
      return ExitCode.ok;
    }
    return tool.handler(values, positionals, { io, debug, signal, now });
  }
  if (!isCommandName(commandWord)) {
    throw usageError(
      `unknown command '${commandWord}'; the commands are ${[...COMMAND_NAMES, ...tools.map((t) => t.name)].join(', ')} (see protoplay --help)`,
    );
  }
  const command = commandWord;
  if (protocolWord === undefined || protocolWord.startsWith('-')) {
    if (protocolWord !== undefined && HELP_WORDS.has(protocolWord)) {
      io.stdout.write(commandHelp(command, protocols));
      return ExitCode.ok;
    }
    throw usageError(
      `which protocol? protoplay ${command} <protocol>, one of ${offering(command, protocols)}`,
    );
  }
  const protocol = protocols.find((candidate) => candidate.id === protocolWord);
  if (!protocol) {
    throw usageError(
      `unknown protocol '${protocolWord}'; protoplay ${command} knows ${offering(command, protocols)}`,
    );
  }
  const spec = protocol.commands[command];
  if (!spec) {
    throw usageError(
      `protoplay ${command} does not support ${protocol.id} yet; it supports ${offering(command, protocols)}`,
    );
  }
  const { values, positionals } = parseOptions(
    argv.slice(2),
    [...spec.options, ...COMMON_OPTIONS],
    `protoplay ${command} ${protocol.id}`,
    spec.restOption !== undefined,
  );
  if (spec.restOption !== undefined && positionals.length > 0) {
    const given = values[spec.restOption];
    if (given === undefined) {
      throw usageError(
        `unexpected argument '${positionals[0]}'; files go after --${spec.restOption} (see protoplay ${command} ${protocol.id} --help)`,
      );
    }
    values[spec.restOption] = [...(Array.isArray(given) ? given : [given]), ...positionals];
  }
  if (values.help === true) {
    io.stdout.write(protocolCommandHelp(command, protocol, spec));
    return ExitCode.ok;
  }
  const context: CommandContext = { io, debug, signal, now };
  return spec.handler(values, context);
}

function isCommandName(word: string): word is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(word);
}

function offering(command: CommandName, protocols: readonly ProtocolCommands[]): string {
  const ids = protocols.filter((protocol) => protocol.commands[command]).map((protocol) => protocol.id);
  return ids.length ? ids.join(', ') : 'none yet';
}

/** Parses options strictly as declared; a parse error becomes a usage error pointing at the help. */
function parseOptions(
  args: string[],
  options: readonly OptionSpec[],
  commandLine: string,
  allowPositionals = false,
) {
  const config: ParseArgsConfig['options'] = {};
  for (const option of options) {
    config[option.name] = {
      type: option.type,
      ...(option.multiple ? { multiple: true } : {}),
      ...(option.short ? { short: option.short } : {}),
    };
  }
  try {
    return parseArgs({ args, options: config, strict: true, allowPositionals });
  } catch (error) {
    const detail = error instanceof Error ? firstSentence(error.message) : String(error);
    throw usageError(`${detail} (see ${commandLine} --help)`);
  }
}

/** Node's parse errors go on with advice about `--`; the first sentence is what matters. */
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  return (end >= 0 ? message.slice(0, end) : message).replace(/\.$/, '');
}

/** The one line printed for an error: located errors as `file:line:column: message`, others after `error: `. */
function errorLine(error: unknown): string {
  if (error instanceof ProtoplayError && error.location) return error.format();
  if (error instanceof CliError && error.located) return error.message;
  return `error: ${describeError(error)}`;
}
