/**
 * Start-up of the command line's policy thread, the one every protocol's policies run in: the time from
 * starting the thread to the first answer of a loaded policy (thread start, the runtime's compiler, the
 * protocol looked up in the registry and its runtime loaded, the policy compiled, one call), per
 * registered protocol, as a clone of the repository runs it (TypeScript through tsx). It is paid once per
 * command and again after every overrun. Baselines in the same run: the same in this process (the
 * protocol's runtime, no thread), and a thread holding the ordinary runtime alone, imported directly
 * (no registry to look it up in). The machine is shared: medians of several starts, each after a warm-up
 * start, and the ratio to the baseline of the same run.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { spawnPolicyThread } from '../../cli/policy/thread-endpoint';
import type { PolicyEndpoint } from '../../src/core/policy/supervisor';
import type { PolicyRuntime } from '../../src/core/policy/runtime';
import type { PolicySource } from '../../src/core/policy/types';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { median, printTable } from '../lib';

const STARTS = 5;
const SOURCE: PolicySource = {
  code: 'export function act() { return null; }\nexport function probe(n: number) { return n + 1; }\n',
  language: 'ts',
  fileName: 'probe.ts',
  level: 'policy',
  seed: 1,
};

/** A thread of the baseline body. */
function plainThread(): PolicyEndpoint {
  const worker = new Worker(new URL('./policy-thread/plain-thread-entry.js', import.meta.url));
  const runtime = Comlink.wrap<PolicyRuntime>(nodeEndpoint(worker));
  return {
    load: (source) => runtime.load(source),
    call: (hook, args, context) => runtime.call(hook, [...args], context),
    terminate: () => void worker.terminate(),
  };
}

/** Milliseconds from start to the first answer of a loaded policy. */
async function firstAnswer(start: () => PolicyEndpoint): Promise<number> {
  const started = performance.now();
  const endpoint = start();
  const loaded = await endpoint.load(SOURCE);
  if (!loaded.ok) throw new Error(loaded.fault.message);
  const answer = await endpoint.call('probe', [1], {});
  if (!answer.ok || answer.value !== 2) throw new Error('the policy did not answer');
  const ms = performance.now() - started;
  endpoint.terminate();
  return ms;
}

async function medianOf(start: () => PolicyEndpoint): Promise<number> {
  await firstAnswer(start); // warm-up: tsx's cache of compiled files
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) times.push(await firstAnswer(start));
  return median(times);
}

export default async function policyThreadBench(): Promise<void> {
  const plain = await medianOf(plainThread);
  const rows: (string | number)[][] = [
    ['thread', 'ms to first answer', 'x the plain thread'],
    ['ordinary runtime alone, imported directly (baseline)', plain, 1],
  ];
  const inProcess: (string | number)[][] = [['protocol', 'ms in this process']];
  for (const protocol of PROTOCOLS) {
    const playground = protocol.playground;
    if (!playground) continue;
    const ms = await medianOf(() => spawnPolicyThread(protocol));
    rows.push([`policy thread for ${protocol.id}`, ms, ms / plain]);
    const local = await medianOf(() => {
      const runtime = playground.loadPolicyRuntime();
      return {
        load: async (source) => (await runtime).load(source),
        call: async (hook, args, context) => (await runtime).call(hook, args, context),
        terminate: () => undefined,
      };
    });
    inProcess.push([protocol.id, local]);
  }
  printTable(`Policy thread start-up to a first answer (median of ${STARTS}, tsx)`, rows);
  printTable('The same without a thread: the protocol runtime in this process', inProcess);
}
