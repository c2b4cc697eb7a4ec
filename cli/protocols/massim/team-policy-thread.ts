/**
 * The body of a team policy thread: a `TeamPolicyRuntime` behind Comlink, as the policy supervisor
 * expects a policy endpoint to be.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { TeamPolicyRuntime } from './team-policy-runtime';

Comlink.expose(new TeamPolicyRuntime(), nodeEndpoint(parentPort!));
