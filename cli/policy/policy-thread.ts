/**
 * The body of every policy thread: the policy runtime of the protocol the thread was started for (the
 * `playground.loadPolicyRuntime` of its definition, which the thread loads alone: exactly what the
 * browser's policy worker runs; the ordinary `act(observation, context)` runtime for a protocol that gives
 * none) behind Comlink. What differs between protocols (one call per turn, a whole team per step, a
 * response's action requests, a chunk of a simulation) is that runtime's; loading, deadlines and killing
 * are the supervisor's in the parent, the same for all.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Protocol } from '../../src/core/protocols/contract';
import { loadBuiltInProtocol } from '../../src/core/protocols/definition-loader';
import type { PolicyRuntimeApi } from '../../src/core/protocols/session-contract';
import type { PolicyThreadData } from './thread-endpoint';

/** The definition of the protocol the thread runs, and nothing of the others. */
async function loadProtocol({ protocol: id, module }: PolicyThreadData): Promise<Protocol> {
  if (module === undefined) return loadBuiltInProtocol(id);
  // An extra protocol: its module, registered as the parent registered it.
  const { loadProtocolModules } = await import('../extra-protocols');
  const [protocol] = await loadProtocolModules([{ path: module, absolute: module }], 'policy thread');
  if (protocol?.id !== id) throw new Error(`'${module}' does not define the protocol '${id}'`);
  return protocol;
}

async function loadRuntime(data: PolicyThreadData): Promise<PolicyRuntimeApi> {
  const protocol = await loadProtocol(data);
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
