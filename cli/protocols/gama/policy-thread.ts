/**
 * The body of a GAMA policy thread: the GAMA policy runtime (per-scavenger memory kept in the thread)
 * behind Comlink, as the policy supervisor expects a policy endpoint to be.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { GamaPolicyRuntime } from '../../../src/core/protocols/gama/policy-runtime';

Comlink.expose(new GamaPolicyRuntime(), nodeEndpoint(parentPort!));
