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

/**
 * Resolves once everything written to the process's stdout and stderr has left the process. Writes to a
 * pipe are asynchronous on Linux and macOS: what the pipe's buffer (64 KiB) cannot take yet waits in the
 * process, and `process.exit` would drop it (`inspect --json big.log | jq` got the first 64 KiB). A reader
 * that went away (`| head`) ends the wait with an error, which is not reported.
 */
export async function processOutputFlushed(): Promise<void> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    // Kept: the stream emits its error after the write's callback has run.
    stream.on('error', () => resolve());
    // An empty write's callback runs once every write before it is done (or failed).
    stream.write('', () => resolve());
  });
}
