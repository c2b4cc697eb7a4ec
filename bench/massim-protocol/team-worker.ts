/**
 * Team policies in a worker thread for the match benchmark: a trivial policy that moves every agent one
 * cell (reading the percept's energy, so the percept is really there; each reply says how many percepts it
 * read and the sum of their energies, which the benchmark prints), as the browser's policy worker will run
 * the user's code. Batches arrive either in the protocol's form (`MassimTeamBatch`: request-actions as
 * phrase numbers or text, parsed here) or, to compare how percepts cross, as structured-clone objects.
 */
import { parentPort } from 'node:worker_threads';
import type { MassimSimStartPercept, MassimStepPercept } from '../../src/core/envs/massim/api';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import type { MassimRequestAction } from '../../src/core/protocols/massim/messages';
import type { MassimAct, MassimPolicyAction } from '../../src/core/protocols/massim/policy-api';
import {
  createTeamBatchAnswerer,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
} from '../../src/core/protocols/massim/team-batch';

/** A batch whose percepts cross as objects (the structured-clone alternative). */
export interface ObjectBatch {
  team: string;
  teamAgents: readonly string[];
  requests: {
    agent: string;
    step: number;
    id: number;
    deadline: number;
    percept: MassimStepPercept;
    simulation: MassimSimStartPercept | undefined;
  }[];
}

/**
 * What the benchmark posts: one batch and the number its reply must carry; or, for the floor rows, the
 * team's request-action texts of every step of a match once (`preload`), then per step only the step's
 * number (`floor`), answered without any server: with the texts parsed by `JSON.parse` or not read at all.
 */
export type TeamWorkerMessage =
  | { sequence: number; batch: MassimTeamBatch }
  | { sequence: number; objects: ObjectBatch }
  | { sequence: number; floor: { step: number; parse: boolean } }
  | { preload: { agents: string[]; texts: string[][] } };

/** What the policy read since the last reply: percepts, and the sum of their energies. */
export interface PolicyReads {
  percepts: number;
  energy: number;
}

const directions = ['n', 'e', 's', 'w'] as const;
let reads: PolicyReads = { percepts: 0, energy: 0 };
const wander: MassimAct = (percept, agent) => {
  const energy = percept.energy;
  reads.percepts++;
  reads.energy += energy;
  return { type: 'move', p: [directions[(agent.step + agent.name.length + energy) % 4]!] };
};

/** Posts a reply with what the policy read for it. */
function reply(sequence: number, actions: MassimTeamBatchReply): void {
  parentPort!.postMessage({ sequence, reply: actions, reads });
  reads = { percepts: 0, energy: 0 };
}
const answerBatch = createTeamBatchAnswerer(wander);
const decide = createTeamDecide(wander);

let preloaded: { agents: string[]; texts: string[][] } = { agents: [], texts: [] };
/** A floor step: the step's preloaded texts parsed (or not), one trivial action per agent. */
function answerFloor(step: number, parse: boolean): MassimTeamBatchReply {
  const { agents, texts } = preloaded;
  const actions: MassimPolicyAction[] = [];
  for (let i = 0; i < agents.length; i++) {
    let energy = 0;
    if (parse) {
      energy = (JSON.parse(texts[step]![i]!) as MassimRequestAction).content.percept.energy;
      reads.percepts++;
      reads.energy += energy;
    }
    actions.push({ type: 'move', p: [directions[(step + agents[i]!.length + energy) % 4]!] });
  }
  return { actions };
}

parentPort!.postMessage('ready');
parentPort!.on('message', (message: TeamWorkerMessage) => {
  if ('preload' in message) {
    preloaded = message.preload;
    return;
  }
  if ('floor' in message) {
    reply(message.sequence, answerFloor(message.floor.step, message.floor.parse));
    return;
  }
  if ('batch' in message) {
    void answerBatch(message.batch).then((actions) => reply(message.sequence, actions));
    return;
  }
  const { team, teamAgents, requests } = message.objects;
  void Promise.all(requests.map((request) => decide({ ...request, team, teamAgents, text: '' }))).then(
    (actions) => reply(message.sequence, { actions: actions.map((a) => a ?? null) }),
  );
});
