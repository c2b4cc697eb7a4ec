/**
 * Start-up of the command line's policy thread, the one every protocol's policies run in: the time from
 * starting the thread to the first answer of a loaded policy (thread start, the runtime's compiler, the
 * protocol's definition and its runtime loaded, the policy compiled, one call), per registered protocol,
 * and the CPU time the process spent meanwhile (the machine may be shared: CPU time is less disturbed by
 * other work than the elapsed time). It is paid once per command and again after every overrun. Measured
 * both ways the command line runs: compiled (what the package runs, `lib/cli/policy-thread-entry.js`, built
 * first by scripts/build-package.ts) and from the TypeScript sources through tsx (what a clone runs).
 *
 * Baselines in the same run: a thread holding the ordinary policy runtime alone, imported directly (no
 * protocol definition at all; compiled the same way for the compiled rows); the thread as it was before
 * it loaded one protocol's definition alone (the registry, with every protocol's definition, imported and
 * the protocol looked up there); and the protocol's runtime in this process (no thread). Medians of several
 * starts, each series after a warm-up start, and ratios to the baseline of the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { build } from 'esbuild';
import type { PolicyThreadData } from '../../cli/policy/thread-endpoint';
import { spawnPolicyThread } from '../../cli/policy/thread-endpoint';
import type { PolicyEndpoint } from '../../src/core/policy/supervisor';
import type { PolicySource } from '../../src/core/policy/types';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import type { PolicyRuntimeApi } from '../../src/core/protocols/session-contract';
import { rawText } from '../../scripts/raw-text-plugin';
import { median, printTable } from '../lib';

const ROOT = resolve(import.meta.dirname, '../..');
const STARTS = 5;
const SOURCE: PolicySource = {
  code: 'export function act() { return null; }\nexport function probe(n: number) { return n + 1; }\n',
  language: 'ts',
  fileName: 'probe.ts',
  level: 'policy',
  seed: 1,
};

/** A policy endpoint over a thread started from `script`. */
function threadOf(script: URL, workerData?: PolicyThreadData): PolicyEndpoint {
  const worker = new Worker(script, workerData ? { workerData } : {});
  const runtime = Comlink.wrap<PolicyRuntimeApi>(nodeEndpoint(worker));
  return {
    load: (source) => runtime.load(source),
    call: (hook, args, context) => runtime.call(hook, [...args], context),
    terminate: () => void worker.terminate(),
  };
}

/** One start: milliseconds to the first answer of a loaded policy, and the process's CPU milliseconds. */
interface Start {
  ms: number;
  cpuMs: number;
}

async function firstAnswer(start: () => PolicyEndpoint): Promise<Start> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const endpoint = start();
  const loaded = await endpoint.load(SOURCE);
  if (!loaded.ok) throw new Error(loaded.fault.message);
  const answer = await endpoint.call('probe', [1], {});
  if (!answer.ok || answer.value !== 2) throw new Error('the policy did not answer');
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  endpoint.terminate();
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

async function medianOf(start: () => PolicyEndpoint): Promise<Start> {
  await firstAnswer(start); // warm-up: tsx's cache of compiled files, the file system's cache
  const starts: Start[] = [];
  for (let i = 0; i < STARTS; i++) starts.push(await firstAnswer(start));
  return { ms: median(starts.map((s) => s.ms)), cpuMs: median(starts.map((s) => s.cpuMs)) };
}

const HEADER = ['thread', 'ms to first answer', 'x baseline', 'CPU ms', 'x baseline CPU'];

/** A table row: the start's figures and their ratios to the baseline's. */
function row(label: string, start: Start, baseline: Start): (string | number)[] {
  return [label, start.ms, start.ms / baseline.ms, start.cpuMs, start.cpuMs / baseline.cpuMs];
}

/** Builds the package's command line, and the baseline threads compiled the same way into `folder`. */
async function compile(
  folder: string,
): Promise<{ policyThread: URL; plainThread: URL; registryThread: URL }> {
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-package.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error('building the compiled command line failed');
  await build({
    entryPoints: {
      'plain-thread': join(import.meta.dirname, 'policy-thread/plain-thread.ts'),
      'registry-thread': join(import.meta.dirname, 'policy-thread/registry-thread.ts'),
    },
    outdir: folder,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'bundle',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    plugins: [rawText],
    logLevel: 'warning',
  });
  return {
    policyThread: pathToFileURL(join(ROOT, 'lib/cli/policy-thread-entry.js')),
    plainThread: pathToFileURL(join(folder, 'plain-thread.js')),
    registryThread: pathToFileURL(join(folder, 'registry-thread.js')),
  };
}

export default async function policyThreadBench(): Promise<void> {
  const playable = PROTOCOLS.filter((protocol) => protocol.playground);
  const folder = mkdtempSync(join(tmpdir(), 'protoplay-policy-thread-bench-'));
  try {
    const compiled = await compile(folder);
    const compiledPlain = await medianOf(() => threadOf(compiled.plainThread));
    const compiledRows: (string | number)[][] = [
      HEADER,
      row('ordinary runtime alone, imported directly (baseline)', compiledPlain, compiledPlain),
    ];
    for (const protocol of playable) {
      const data: PolicyThreadData = { protocol: protocol.id };
      const every = await medianOf(() => threadOf(compiled.registryThread, data));
      compiledRows.push(row(`${protocol.id}, every definition (registry)`, every, compiledPlain));
      const one = await medianOf(() => threadOf(compiled.policyThread, data));
      compiledRows.push(row(`${protocol.id}, its definition alone (policy thread)`, one, compiledPlain));
    }
    printTable(`Compiled policy thread, start to a first answer (median of ${STARTS})`, compiledRows);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const plain = await medianOf(() =>
    threadOf(new URL('./policy-thread/plain-thread-entry.js', import.meta.url)),
  );
  const rows: (string | number)[][] = [
    HEADER,
    row('ordinary runtime alone, imported directly (baseline)', plain, plain),
  ];
  const inProcess: (string | number)[][] = [['protocol', 'ms in this process']];
  const registryEntry = new URL('./policy-thread/registry-thread-entry.js', import.meta.url);
  for (const protocol of playable) {
    const every = await medianOf(() => threadOf(registryEntry, { protocol: protocol.id }));
    rows.push(row(`${protocol.id}, every definition (registry)`, every, plain));
    const one = await medianOf(() => spawnPolicyThread(protocol));
    rows.push(row(`${protocol.id}, its definition alone (policy thread)`, one, plain));
    const local = await medianOf(() => {
      const runtime = protocol.playground!.loadPolicyRuntime();
      return {
        load: async (source) => (await runtime).load(source),
        call: async (hook, args, context) => (await runtime).call(hook, args, context),
        terminate: () => undefined,
      };
    });
    inProcess.push([protocol.id, local.ms]);
  }
  printTable(
    `Policy thread from the sources through tsx, start to a first answer (median of ${STARTS})`,
    rows,
  );
  printTable('The protocol runtime in this process, no thread', inProcess);
}
