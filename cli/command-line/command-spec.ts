/**
 * The contract between the generic command line and the protocols. Every protocol offers the same
 * commands (run, serve, connect, evaluate) by registering a `ProtocolCommands` value; the dispatcher knows nothing
 * about any protocol beyond what these specs say.
 */
import type { CliIo } from './io';

/** The jobs of the command line. */
export type CommandName = 'run' | 'serve' | 'connect' | 'evaluate';

/** Every command name, in the order help lists them. */
export const COMMAND_NAMES: readonly CommandName[] = ['run', 'serve', 'connect', 'evaluate'];

/** What each command does, for the top-level help. */
export const COMMAND_SUMMARIES: Readonly<Record<CommandName, string>> = {
  run: 'play sessions locally against the emulated server and print the results',
  serve: "be the server real clients connect to (over the protocol's own transport: TCP, HTTP, WebSocket)",
  connect: 'be a client of a real server (or of `protoplay serve`)',
  evaluate: 'play policies on many seeds, each in its own sandboxed thread, and compare them',
};

/** One option of a command, as `util.parseArgs` reads it, with what help prints about it. */
export interface OptionSpec {
  /** Long name without dashes (`rounds` for `--rounds`). */
  name: string;
  type: 'string' | 'boolean';
  /** The option may be given several times; its value is then a list. */
  multiple?: boolean;
  /** One-letter alias. */
  short?: string;
  /** Placeholder for the value in help (`N`, `FILE`). */
  valueName?: string;
  /** One line of help; mention the default here. */
  description: string;
}

/** Option values as `util.parseArgs` returns them. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** What a running command may use besides its options. */
export interface CommandContext {
  io: CliIo;
  /** `--debug`: show stack traces and internal details. */
  debug: boolean;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM: stop, keep what was recorded, exit with code 130. */
  signal: AbortSignal;
  /** Wall clock in ms (injectable so a test can make transcripts repeatable). */
  now: () => number;
}

/** One command of one protocol. */
export interface CommandSpec {
  /** One line saying what it does. */
  summary: string;
  /** Paragraphs printed under the usage line. */
  description?: string;
  options: readonly OptionSpec[];
  /**
   * A `multiple` option whose values may also follow it as plain arguments (`--policies a.ts b.ts`):
   * positional arguments are added to its list. Without it, positional arguments are refused.
   */
  restOption?: string;
  /** Complete command lines, without the leading `protoplay`. */
  examples: readonly string[];
  /** Runs the command; resolves to its exit code, or throws a CliError / ProtoplayError. */
  handler(values: OptionValues, context: CommandContext): Promise<number>;
}

/** A protocol's entry in the command line. */
export interface ProtocolCommands {
  /** Name on the command line (`rddlsim`). */
  id: string;
  /** What it is, for help (`RDDLSim: IPPC planning competitions`). */
  title: string;
  commands: Partial<Record<CommandName, CommandSpec>>;
}

/** A command that works across protocols and takes files rather than a protocol word (`protoplay inspect`). */
export interface ToolCommandSpec {
  /** The command word. */
  name: string;
  /** One line saying what it does. */
  summary: string;
  /** The usage line (`protoplay inspect FILE... [options]`). */
  usage: string;
  /** Paragraphs printed under the usage line. */
  description?: string;
  /**
   * More help printed under the description, computed when the command's own help is asked for (a list
   * that needs modules the rest of the command line starts without).
   */
  helpDetails?: () => Promise<string>;
  options: readonly OptionSpec[];
  /** Complete command lines, with the leading `protoplay`. */
  examples: readonly string[];
  /** Runs the command with its options and its positional arguments. */
  handler(values: OptionValues, positionals: readonly string[], context: CommandContext): Promise<number>;
}
