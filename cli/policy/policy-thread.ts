/**
 * The body of a policy thread: the core policy runtime behind Comlink, exactly as the browser's policy
 * worker exposes it, so the command line and the playground run a policy the same way.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { PolicyRuntime } from '../../src/core/policy/runtime';

Comlink.expose(new PolicyRuntime(), nodeEndpoint(parentPort!));
