/**
 * The body of a team policy thread: the playground's MASSim team runtime (one call per team and step,
 * per-agent and per-team memory kept in the thread) behind Comlink, as the policy supervisor expects a
 * policy endpoint to be.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { MassimTeamRuntime } from '../../../src/core/protocols/massim/team-runtime';

Comlink.expose(new MassimTeamRuntime(), nodeEndpoint(parentPort!));
