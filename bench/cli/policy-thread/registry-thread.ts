/**
 * The comparison thread's body: the policy thread as it was before it loaded one protocol's definition
 * alone. It imports the registry (every protocol's definition) and looks the protocol up there, then runs
 * that protocol's policy runtime behind Comlink as the command line's thread does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { PolicyThreadData } from '../../../cli/policy/thread-endpoint';
import { PolicyRuntime } from '../../../src/core/policy/runtime';
import { findProtocol } from '../../../src/core/protocols/registry';
import type { PolicyRuntimeApi } from '../../../src/core/protocols/session-contract';

const protocol = findProtocol((workerData as PolicyThreadData).protocol);
if (!protocol) throw new Error('no such protocol');
const runtime: Promise<PolicyRuntimeApi> = protocol.playground
  ? protocol.playground.loadPolicyRuntime()
  : Promise.resolve(new PolicyRuntime());
const api: PolicyRuntimeApi = {
  load: async (source) => (await runtime).load(source),
  call: async (hook, args, context) => (await runtime).call(hook, args, context),
};
Comlink.expose(api, nodeEndpoint(parentPort!));
