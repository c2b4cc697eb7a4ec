/**
 * A team policy in a worker thread for the match benchmark: answers batches of request-actions (one
 * message per team and step) with a trivial policy that moves every agent one cell, as the browser's policy
 * worker will with the user's code. Percepts arrive as wire text and are parsed here.
 */
import { parentPort } from 'node:worker_threads';
import { createTeamBatchAnswerer, type MassimTeamBatch } from '../../src/core/protocols/massim/index';
import type { MassimAct } from '../../src/core/protocols/massim/policy-api';

const directions = ['n', 'e', 's', 'w'] as const;
const wander: MassimAct = (percept, agent) => ({
  type: 'move',
  p: [directions[(agent.step + agent.name.length + percept.energy) % 4]!],
});
const answer = createTeamBatchAnswerer(wander);

parentPort!.on('message', (message: { sequence: number; batch: MassimTeamBatch }) => {
  void answer(message.batch).then((reply) => parentPort!.postMessage({ sequence: message.sequence, reply }));
});
