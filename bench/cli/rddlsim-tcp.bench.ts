/**
 * Turns per second of `protoplay connect` against `protoplay serve` over loopback TCP (noop policy,
 * sysadmin_inst_mdp__1 from the shared IPPC files), in one process and as two child processes, next to
 * the same session through the in-memory `EmulatedSession` (no TCP) measured in the same run, and to
 * rddlsim's own server with its own Java client on this kind of machine (~550 turns/s: every round start
 * costs a Nagle / delayed-ACK stall there). All three use Protoplay's generator without rddlsim's quirks,
 * so they simulate the same way. The in-process rows also give the CPU time per turn (client and server
 * together for the TCP row): on a loaded machine the wall-clock rate swings with the load, the CPU time
 * barely, so compare commits by it and by the ratio to the in-memory baseline of the same run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { EmulatedSession } from '../../src/core/protocols/rddlsim/session';
import type { Transcript } from '../../src/core/transcript/model';
import { preparePolicy } from '../../cli/protocols/rddlsim/policies';
import { RddlLibrary } from '../../cli/protocols/rddlsim/rddl-library';
import { playRemoteSession } from '../../cli/protocols/rddlsim/remote-session';
import { RddlsimServer } from '../../cli/protocols/rddlsim/server';
import { measureRate, printTable, type Rate } from '../lib';

const INSTANCE = 'sysadmin_inst_mdp__1';
const RDDL_DIR = resolve(process.cwd(), '../shared/rddl/ippc2011');
const ROUNDS = 50;
/** A child process starts cold (nothing compiled by the JIT yet), so its sessions are longer. */
const CHILD_ROUNDS = 200;
/** The JIT needs a few thousand turns before the code is optimised. */
const WARM = { warmup: 5, repeats: 5 };
/** rddlsim's server and Java client + NoopPolicy on sysadmin 1, steady state (research notes, §5.2). */
const REAL_SERVER_TURNS_PER_SECOND = 552;
const BIN = resolve(import.meta.dirname, '../../cli/bin/protoplay.js');

export default async function () {
  const library = await RddlLibrary.fromServerDirectory(RDDL_DIR, { cwd: process.cwd(), mode: 'lenient' });
  const { model, task } = library.load(INSTANCE);
  const horizon = model.info.horizon;
  const turns = ROUNDS * horizon;
  const noop = await preparePolicy('noop', {
    cwd: process.cwd(),
    seed: 0,
    budgetMs: 1000,
    invalidActions: 'stop',
  });

  const emulated = await measureRate(
    'EmulatedSession, in memory (baseline)',
    turns,
    async () => {
      // No world snapshots: the TCP pair records wire messages only.
      const policy = noop.forInstance(model.info);
      const session = new EmulatedSession({ model, task, policy, rounds: ROUNDS, recordWorld: false });
      await session.run();
    },
    WARM,
  );

  const server = await RddlsimServer.start({
    library,
    host: '127.0.0.1',
    port: 0,
    rounds: ROUNDS,
    seed: 0,
    timeLimitSeconds: 0,
    monitorExecution: false,
    noHeaderScope: 'connection',
    maxMessageBytes: 1 << 20,
    semantics: 'protoplay',
    log: () => undefined,
  });
  const inProcess = await measureRate(
    'connect + serve, one process, loopback TCP',
    turns,
    async () => {
      const result = await playRemoteSession({
        host: '127.0.0.1',
        port: server.address.port,
        problemName: INSTANCE,
        clientName: 'bench',
        noHeader: false,
        timeoutMs: 10_000,
        policy: noop,
        sendInvalidActions: false,
        onPolicyFault: 'stop',
        now: Date.now,
        signal: new AbortController().signal,
      });
      if (result.outcome.kind !== 'finished')
        throw new Error(`session failed: ${JSON.stringify(result.outcome)}`);
    },
    WARM,
  );
  await server.close();

  const processes = await measureChildProcesses(CHILD_ROUNDS * horizon);

  const versusMemory = (rate: Rate) => `${(rate.opsPerSecond / emulated.opsPerSecond).toFixed(2)}x`;
  const versusRddlsim = (rate: Rate) => `${Math.round(rate.opsPerSecond / REAL_SERVER_TURNS_PER_SECOND)}x`;
  printTable(`rddlsim over TCP, ${INSTANCE} (${horizon} turns per round), noop policy`, [
    ['setup', 'rounds', 'turns/s', 'vs in-memory', 'vs rddlsim', 'CPU us/turn'],
    ...[emulated, inProcess, ...processes].map((rate) => [
      rate.label,
      rate.ops / horizon,
      rate.opsPerSecond,
      versusMemory(rate),
      versusRddlsim(rate),
      rate.cpuSeconds === undefined ? '-' : (rate.cpuSeconds * 1e6) / rate.ops,
    ]),
    [
      'rddlsim Server + its Java Client (reference, research notes)',
      30,
      REAL_SERVER_TURNS_PER_SECOND,
      '',
      '1x',
      '-',
    ],
  ]);
}

/**
 * `protoplay serve` and `protoplay connect` as two processes. Process start-up is not a turn, so each
 * session is timed by the client's own transcript: from its session-request to the server's session-end,
 * and over its second half alone, once the fresh client process has been compiled by the JIT. One
 * warm-up session (it warms the server up), then the median of three.
 */
async function measureChildProcesses(turns: number): Promise<Rate[]> {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-bench-'));
  const serveArgs = [
    'serve',
    'rddlsim',
    '--rddl-dir',
    RDDL_DIR,
    '--port',
    '0',
    '--rounds',
    String(CHILD_ROUNDS),
  ];
  const server = spawn(
    process.execPath,
    [BIN, ...serveArgs, '--time-limit', '0', '--semantics', 'protoplay', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const port = await new Promise<number>((found, failed) => {
      createInterface({ input: server.stdout! }).on('line', (line) => {
        const match = /listening on [^ ]+:(\d+)/.exec(line);
        if (match) found(Number(match[1]));
      });
      server.once('exit', (code) => failed(new Error(`serve exited with ${code}`)));
    });
    const seconds: number[] = [];
    const secondHalf: number[] = [];
    for (let i = 0; i < 4; i++) {
      const file = join(dir, `session-${i}.json`);
      await runToEnd([
        'connect',
        'rddlsim',
        '--port',
        String(port),
        '--instance',
        INSTANCE,
        '--transcript',
        file,
        '--json',
      ]);
      const transcript = JSON.parse(await readFile(file, 'utf8')) as Transcript;
      if (i === 0) continue;
      seconds.push(sessionSeconds(transcript));
      secondHalf.push(secondHalfSeconds(transcript));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    const whole = median(seconds);
    const steady = median(secondHalf);
    return [
      {
        label: 'connect + serve, two processes, whole session',
        opsPerSecond: turns / whole,
        seconds: whole,
        ops: turns,
      },
      {
        label: 'connect + serve, two processes, second half',
        opsPerSecond: turns / 2 / steady,
        seconds: steady,
        ops: turns / 2,
      },
    ];
  } finally {
    server.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

function sessionSeconds(transcript: Transcript): number {
  const data = transcript.messages.filter((message) => message.kind === 'data');
  return (data.at(-1)!.t - data[0]!.t) / 1000;
}

/** From the round-end halfway through the session to the last message. */
function secondHalfSeconds(transcript: Transcript): number {
  const data = transcript.messages.filter((message) => message.kind === 'data');
  const roundEnds = data.filter((message) => message.text?.includes('<round-end>'));
  return (data.at(-1)!.t - roundEnds[CHILD_ROUNDS / 2 - 1]!.t) / 1000;
}

function runToEnd(args: string[]): Promise<void> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) =>
      code === 0 ? done() : failed(new Error(`protoplay ${args[0]} exited with ${code}`)),
    );
  });
}
