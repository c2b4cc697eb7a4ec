/**
 * Running `protoplay` in tests: in-process through the same dispatcher the binary uses (fast, output
 * captured), or as a real child process: the command line compiled once for the whole run, as the package
 * compiles it (tests/setup/compiled-cli.ts), or, when the run did not compile it, the sources through tsx
 * as a clone of the repository runs them.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import { runCommandLine } from '../../cli/command-line/dispatch';
import type { CliOutput } from '../../cli/command-line/io';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { TOOL_COMMANDS } from '../../cli/tools';

/** What a run printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command in a clone of the repository: what the package's `bin` (bin/protoplay.js) starts here. */
export const SOURCE_BIN = resolve(import.meta.dirname, '../../cli/bin/protoplay.js');

/** The command line this run compiled (tests/setup/compiled-cli.ts), if it did. */
export const COMPILED_BIN = inject('compiledCli');

/** The command the tests start as `node BIN ...args`: compiled when the run compiled it, else the sources. */
export const BIN = COMPILED_BIN ?? SOURCE_BIN;

class CapturedOutput implements CliOutput {
  text = '';
  readonly isTTY = false;
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

/** Runs a command line in this process; `now` fixes the clock when given. */
export async function runInProcess(
  args: string[],
  { cwd = process.cwd(), now, signal }: { cwd?: string; now?: () => number; signal?: AbortSignal } = {},
): Promise<CliResult> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await runCommandLine(
    args,
    PROTOCOL_COMMANDS,
    { io: { stdout, stderr, cwd }, ...(now ? { now } : {}), ...(signal ? { signal } : {}) },
    TOOL_COMMANDS,
  );
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Runs `node BIN ...args` (or `node <bin> ...args`) to its end. */
export function runChild(
  args: string[],
  {
    cwd = process.cwd(),
    env,
    bin = BIN,
    nodeArgs = [],
  }: {
    cwd?: string;
    env?: Record<string, string>;
    bin?: string;
    /** Node's own options, before the script (`--max-old-space-size=64`, `--import ...`). */
    nodeArgs?: string[];
  } = {},
): Promise<CliResult> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}
