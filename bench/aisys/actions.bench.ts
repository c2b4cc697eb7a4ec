/**
 * Actions per second through the emulated aisysprojserver: perfect Nim (three actions a run) on `nim`,
 * five runs in parallel (the course client's default), the client of `connect` and the emulated server,
 * recording every exchange:
 *
 * - in memory: `AisysSession`, the client and the host joined by an in-memory pipe (what `run` and the
 *   playground play), and the host alone answering prepared requests (its ceiling);
 * - over HTTP on 127.0.0.1: the command line's HTTP server and client in one process, and `protoplay serve`
 *   as a child process with the client here (two processes, as a student's client and the server would be).
 *
 * Ratios are to the in-memory session measured in this run and to the real server's figure noted in the
 * research notes (~250 applied actions per second at saturation, Flask's server and uwsgi alike, on a
 * 2-vCPU machine of this kind: research/aisysprojserver.md section 5): a noted figure, not measured here.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { AisysClient } from '../../src/core/protocols/aisys/client';
import { aisysChannel } from '../../src/core/protocols/aisys/codec';
import { localDecide } from '../../src/core/protocols/aisys/decide';
import { AisysHost } from '../../src/core/protocols/aisys/host';
import { AisysSession } from '../../src/core/protocols/aisys/session';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { runHttpClient } from '../../cli/net/http-client';
import { HttpServer } from '../../cli/net/http-server';
import { measureRate, printTable, type Rate } from '../lib';

/** Applied actions per second of the real server at saturation, as the research notes give it (not measured). */
const NOTED_REAL_SERVER_ACTIONS_PER_SECOND = 250;
const RUNS = 2000;
const HTTP_RUNS = 600;
const BIN = new URL('../../cli/bin/protoplay.js', import.meta.url).pathname;

const perfect = () => localDecide((percept) => (percept as number) % 4 || 1);

/** Actions a session's finished runs took. */
function actionsOf(finished: readonly { actions: number }[]): number {
  return finished.reduce((sum, run) => sum + run.actions, 0);
}

export default async function () {
  const rates: Rate[] = [];

  // In memory: the session the playground and `run` play.
  let sessionActions = 0;
  const inMemory = await measureRate(
    'AisysSession: client and host in memory, recorded',
    RUNS * 3,
    async () => {
      const session = new AisysSession({ env: 'nim', runs: RUNS, decide: perfect() });
      await session.run();
      sessionActions = actionsOf(session.finished);
    },
    { warmup: 2, repeats: 5 },
  );
  rates.push(withActions(inMemory, sessionActions));

  rates.push(await hostAlone());

  // Over HTTP, one process.
  const host = new AisysHost();
  host.addEnvironment('nim', 'nim', { strong: false, random_start: true });
  const pwd = host.addAgent('nim', 'bench');
  const server = await HttpServer.start({
    endpoint: host,
    port: 0,
    recorder: new TranscriptRecorder({ protocol: 'aisys' }),
    channelOf: aisysChannel,
    log: () => undefined,
  });
  const url = `http://127.0.0.1:${server.address.port}/`;
  let httpActions = 0;
  const oneProcess = await measureRate(
    'HTTP on 127.0.0.1: server and client in one process',
    HTTP_RUNS * 3,
    async () => {
      httpActions = await playOverHttp(url, pwd);
    },
    { warmup: 1, repeats: 3 },
  );
  rates.push(withActions(oneProcess, httpActions));
  await server.close();

  rates.push(await againstServeProcess());

  const versusMemory = (rate: Rate) => `${(rate.opsPerSecond / rates[0]!.opsPerSecond).toFixed(2)}x`;
  const versusReal = (rate: Rate) =>
    `${Math.round(rate.opsPerSecond / NOTED_REAL_SERVER_ACTIONS_PER_SECOND)}x`;
  printTable('aisys, perfect Nim on nim, 5 runs in parallel', [
    ['setup', 'actions', 'actions/s', 'vs in memory', 'vs real server (noted)'],
    ...rates.map((rate) => [rate.label, rate.ops, rate.opsPerSecond, versusMemory(rate), versusReal(rate)]),
    [
      'aisysprojserver 0.1.3, saturated (research notes, not measured here)',
      '',
      NOTED_REAL_SERVER_ACTIONS_PER_SECOND,
      '',
      '1x',
    ],
  ]);
}

/** A rate counted in the actions the runs really took (a run limit may finish a few runs more). */
function withActions(rate: Rate, actions: number): Rate {
  return { ...rate, ops: actions, opsPerSecond: actions / rate.seconds };
}

/**
 * The host alone: the requests a perfect client sends, prepared by playing once, answered again by fresh
 * hosts (same seed, so the same runs): the cost of serving without the client's side.
 */
async function hostAlone(): Promise<Rate> {
  const played = new AisysSession({ env: 'nim', runs: RUNS, decide: perfect(), seed: 5, now: () => 0 });
  await played.run();
  const requests = played.transcript.messages
    .filter((message) => message.dir === 'c2s')
    .map((message) => ({
      meta: { method: 'PUT', path: '/act/nim', headers: { 'content-type': 'application/json' } },
      body: message.text!,
    }));
  const actions = actionsOf(played.finished);
  const rate = await measureRate(
    'host alone, answering prepared requests',
    actions,
    () => {
      const host = new AisysHost({ seed: 5, now: () => 0 });
      host.addEnvironment('nim', 'nim', { strong: false, random_start: true });
      host.addAgent('nim', 'agent');
      for (const request of requests) host.handle(request);
    },
    { warmup: 2, repeats: 5 },
  );
  return rate;
}

/** Plays HTTP_RUNS runs as `connect` does; returns the actions they took. */
async function playOverHttp(url: string, pwd: string): Promise<number> {
  let actions = 0;
  const client = new AisysClient({
    agent: 'bench',
    pwd,
    env: 'nim',
    url,
    decide: perfect(),
    runLimit: HTTP_RUNS,
    onEvent: (event) => {
      if (event.kind === 'run-finished') actions += event.actions;
    },
  });
  await runHttpClient({
    baseUrl: url,
    endpoint: client,
    recorder: new TranscriptRecorder({ protocol: 'aisys' }),
    channelOf: aisysChannel,
  });
  const outcome = client.outcome;
  if (outcome?.kind !== 'finished') throw new Error(`the client stopped: ${JSON.stringify(outcome)}`);
  return actions;
}

/** `protoplay serve aisys` as a child process, this process's client playing against it. */
async function againstServeProcess(): Promise<Rate> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', 'aisys', '--port', '0', '--env', 'nim', '--agent', 'bench', '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const url = await new Promise<string>((found, failed) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /listening on (\S+)/.exec(line);
        if (match) found(match[1]!);
      });
      child.once('exit', (code) => failed(new Error(`serve exited with ${code}`)));
    });
    // The password is the first one the host makes for seed 0: a host of our own makes the same.
    const twin = new AisysHost();
    twin.addEnvironment('nim', 'nim', {});
    const pwd = twin.addAgent('nim', 'bench');
    let actions = 0;
    const rate = await measureRate(
      'HTTP on 127.0.0.1: protoplay serve (child process) and this client',
      HTTP_RUNS * 3,
      async () => {
        actions = await playOverHttp(url, pwd);
      },
      { warmup: 1, repeats: 3 },
    );
    return withActions(rate, actions);
  } finally {
    child.kill();
  }
}
