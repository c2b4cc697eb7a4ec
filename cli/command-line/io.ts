/**
 * Where a command writes and what it knows of its surroundings. Commands never touch `process` directly,
 * so tests run them in-process with captured output, and the same command works under a pipe or a
 * terminal (a progress bar only on a terminal).
 */

/** An output stream: the bits of a Node writable stream the commands use. */
export interface CliOutput {
  write(text: string): unknown;
  /** True on a terminal: progress bars and live lines are drawn only there. */
  isTTY?: boolean;
}

/** A command's surroundings. */
export interface CliIo {
  /** Results: per-round lines, summaries, `--json` documents, server logs. */
  stdout: CliOutput;
  /** Progress bars, warnings and the final error line. */
  stderr: CliOutput;
  /** Directory relative paths are resolved against. */
  cwd: string;
}

/** The real process's streams and working directory. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}
