/**
 * Exit codes of every `protoplay` command. They are part of the command line's contract (scripts and CI
 * branch on them), documented in docs/cli.md, and never reused for another meaning.
 */
export const ExitCode = {
  /** The command did what was asked. */
  ok: 0,
  /** Runtime or protocol error: bad RDDL, a peer that broke the protocol, a session that ended abnormally. */
  failure: 1,
  /** Usage error: unknown command or option, missing or malformed value. */
  usage: 2,
  /** The policy failed: syntax error, load error, a throw, a time budget overrun, invalid actions. */
  policy: 3,
  /** Connection problem: refused, closed early, no answer within the timeout, address in use. */
  connection: 4,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM; what was recorded so far is kept. */
  interrupted: 130,
} as const;

/** One of the documented exit codes. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error a command reports as one line and an exit code. The message is complete on its own (located as
 * `file:line:column: message` when it points into a file); no stack trace is shown unless `--debug`.
 */
export class CliError extends Error {
  /** The message starts with where the problem is (`file:line:column: ` or `file: `): printed as it is. */
  readonly located: boolean;

  constructor(
    readonly exitCode: ExitCode,
    message: string,
    { located = false }: { located?: boolean } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.located = located;
  }
}

/** A usage error (exit code 2). */
export function usageError(message: string): CliError {
  return new CliError(ExitCode.usage, message);
}
