/**
 * The policy worker: the user's policy runs here, alone, so a runaway loop blocks nothing but this worker,
 * which the session worker then terminates. A thin Comlink shell over the runtime of the protocol named
 * in the worker's name (`policy:<protocol id>`), as the protocol's playground gives it.
 */
import * as Comlink from 'comlink';
import { protocolOrDefault } from '../src/core/protocols/registry';
import type { PolicyRuntimeApi } from '../src/core/protocols/session-contract';

const protocol = protocolOrDefault(self.name.replace(/^policy:/, ''));
const playground = protocol.playground;
// Exposed at once, so no call is lost while the runtime (and its compiler) loads: calls wait for it.
const runtime: Promise<PolicyRuntimeApi> = playground
  ? playground.loadPolicyRuntime()
  : Promise.reject(new Error(`${protocol.label} has no policy runtime`));
runtime.catch(() => undefined);

const api: PolicyRuntimeApi = {
  load: async (source) => (await runtime).load(source),
  call: async (hook, args, context) => (await runtime).call(hook, args, context),
};

// The default endpoint is the worker global scope.
Comlink.expose(api);
