/**
 * The body of every policy thread: the policy runtime of the protocol the thread was started for (its
 * definition's `playground.loadPolicyRuntime`, exactly what the browser's policy worker runs; the ordinary
 * `act(observation, context)` runtime for a protocol that gives none) behind Comlink. What differs between
 * protocols (one call per turn, a whole team per step, a response's action requests, a chunk of a
 * simulation) is that runtime's; loading, deadlines and killing are the supervisor's in the parent, the
 * same for all.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { findProtocol } from '../../src/core/protocols/registry';
import type { PolicyRuntimeApi } from '../../src/core/protocols/session-contract';
import { loadProtocolModules } from '../extra-protocols';
import type { PolicyThreadData } from './thread-endpoint';

async function loadRuntime({ protocol: id, extraProtocols }: PolicyThreadData): Promise<PolicyRuntimeApi> {
  if (!findProtocol(id)) {
    const modules = extraProtocols.map((path) => ({ path, absolute: path }));
    await loadProtocolModules(modules, 'policy thread');
  }
  const protocol = findProtocol(id);
  if (!protocol) throw new Error(`no protocol '${id}' is registered`);
  if (protocol.playground) return protocol.playground.loadPolicyRuntime();
  return new (await import('../../src/core/policy/runtime')).PolicyRuntime();
}

// Exposed at once, so no call is lost while the runtime loads: calls wait for it, and fail with its error.
const runtime = loadRuntime(workerData as PolicyThreadData);
runtime.catch(() => undefined);
const api: PolicyRuntimeApi = {
  load: async (source) => (await runtime).load(source),
  call: async (hook, args, context) => (await runtime).call(hook, args, context),
};
Comlink.expose(api, nodeEndpoint(parentPort!));
