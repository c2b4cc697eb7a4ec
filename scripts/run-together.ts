/**
 * Runs npm scripts at the same time and reports each whole, one after another: `tsx
 * scripts/run-together.ts lint format:check check`. The checks `npm test` starts with (ESLint, Prettier,
 * svelte-check and tsc) each keep one core busy for about a minute; run together on a 2-core machine they
 * take the time of the longest and a little more instead of the sum.
 *
 * Each script's output (stdout and stderr, in the order written) is held until it ends, then printed
 * under a header with its verdict and time, so two scripts' lines never interleave. The exit code is 0
 * when every script passed, else 1, after all have ended (a failure does not cut the others short: their
 * verdicts are wanted too). Ctrl-C stops them all.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface Outcome {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  output: Buffer[];
}

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: tsx scripts/run-together.ts <npm script> [<npm script>…]\n');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = new Set<ChildProcess>();

function run(name: string): Promise<Outcome> {
  const started = performance.now();
  const output: Buffer[] = [];
  return new Promise((done) => {
    const child = spawn(npm, ['run', name], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Colours as on a terminal when the caller's output is one (the child's is a pipe).
      env: process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1', ...process.env } : process.env,
    });
    children.add(child);
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      children.delete(child);
      done({ name, code, signal, ms: performance.now() - started, output });
    };
    child.once('error', (error) => {
      output.push(Buffer.from(`could not start npm run ${name}: ${error.message}\n`));
      end(null, null);
    });
    child.once('close', end);
  });
}

function verdict(outcome: Outcome): string {
  const seconds = `${(outcome.ms / 1000).toFixed(1)} s`;
  if (outcome.code === 0) return `passed in ${seconds}`;
  if (outcome.signal) return `stopped by ${outcome.signal} after ${seconds}`;
  return `failed${outcome.code === null ? '' : ` (exit ${outcome.code})`} after ${seconds}`;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 130;
  });

process.stdout.write(`Running together: ${names.join(', ')}\n`);
const outcomes = await Promise.all(
  names.map((name) =>
    run(name).then((outcome) => {
      process.stdout.write(`\n── npm run ${name}: ${verdict(outcome)}\n`);
      for (const chunk of outcome.output) process.stdout.write(chunk);
      return outcome;
    }),
  ),
);
const failed = outcomes.filter((outcome) => outcome.code !== 0);
process.stdout.write(
  failed.length === 0
    ? `\nAll passed: ${names.join(', ')}\n`
    : `\nFailed: ${failed.map((outcome) => outcome.name).join(', ')} (see above)\n`,
);
// 130 when stopped by Ctrl-C, else 1 when a script failed.
if (failed.length > 0 && !process.exitCode) process.exitCode = 1;
