/**
 * The body of an aisys policy thread: the playground's aisys policy runtime (a whole response's action
 * requests per call, each run's memory kept in the thread) behind Comlink, as the policy supervisor expects
 * a policy endpoint to be.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { AisysPolicyRuntime } from '../../../src/core/protocols/aisys/policy-runtime';

Comlink.expose(new AisysPolicyRuntime(), nodeEndpoint(parentPort!));
