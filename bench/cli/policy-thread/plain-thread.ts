/**
 * The baseline thread's body: the ordinary policy runtime behind Comlink, imported directly, with no
 * protocol registry to look it up in (what a thread made for one protocol would be).
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { PolicyRuntime } from '../../../src/core/policy/runtime';

Comlink.expose(new PolicyRuntime(), nodeEndpoint(parentPort!));
