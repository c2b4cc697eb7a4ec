/**
 * Steps per second of a whole MASSim match played over loopback TCP by the command line: `serve massim`
 * and two `connect massim` teams (built-in random policies in their policy threads), all in this process,
 * next to the real massim_2022 server's ~43 steps/s with trivial agents on this kind of machine (research
 * notes). One warm-up match, then the median of three; each match is timed from the serve command's
 * start to its end, logins included.
 */
import { runCommandLine } from '../../cli/command-line/dispatch';
import type { CliOutput } from '../../cli/command-line/io';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { median, printTable } from '../lib';

const AGENTS = 10;
const STEPS = 200;
const REAL_SERVER_STEPS_PER_SECOND = 43;

class Output implements CliOutput {
  text = '';
  readonly isTTY = false;
  #watchers: (() => void)[] = [];
  write(text: string): boolean {
    this.text += text;
    for (const watch of this.#watchers) watch();
    return true;
  }
  waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve) => {
      const check = () => {
        const match = pattern.exec(this.text);
        if (match) resolve(match);
      };
      this.#watchers.push(check);
      check();
    });
  }
}

function run(args: string[], output = new Output()): Promise<number> {
  return runCommandLine(args, PROTOCOL_COMMANDS, {
    io: { stdout: output, stderr: new Output(), cwd: process.cwd() },
  });
}

/** One whole match; resolves to its wall time in seconds. */
async function playMatch(): Promise<number> {
  const started = performance.now();
  const serveOutput = new Output();
  const serve = run(
    [
      'serve',
      'massim',
      '--port',
      '0',
      '--agents',
      String(AGENTS),
      '--steps',
      String(STEPS),
      '--seed',
      '1',
      '--wait-between-simulations',
      '0',
      '--quiet',
    ],
    serveOutput,
  );
  const port = (await serveOutput.waitFor(/listening on [^ ]+:(\d+)/))[1]!;
  const teams = ['A', 'B'].map((team) =>
    run([
      'connect',
      'massim',
      '--port',
      port,
      '--team',
      team,
      '--agents',
      String(AGENTS),
      '--policy',
      'random',
      '--quiet',
    ]),
  );
  const codes = await Promise.all([serve, ...teams]);
  if (codes.some((code) => code !== 0)) throw new Error(`a command failed: exit codes ${codes.join(', ')}`);
  return (performance.now() - started) / 1000;
}

export default async function () {
  await playMatch();
  const seconds = median([await playMatch(), await playMatch(), await playMatch()]);
  const rate = STEPS / seconds;
  printTable(`MASSim over TCP: serve + two connect teams of ${AGENTS}, ${STEPS} steps, random policies`, [
    ['setup', 'steps/s', 'seconds', 'x real server'],
    [
      'serve massim + 2 x connect massim, one process, loopback TCP',
      rate,
      seconds,
      `${(rate / REAL_SERVER_STEPS_PER_SECOND).toFixed(1)}x`,
    ],
    [
      'massim_2022 server + trivial agents (reference, research notes)',
      REAL_SERVER_STEPS_PER_SECOND,
      '',
      '1x',
    ],
  ]);
}
