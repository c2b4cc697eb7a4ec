/**
 * A MASSim match of the emulated server with connections made during it, recorded: agents written at the
 * wire level, one closing its connection and coming back, one reconnecting without closing, one joining
 * late. Replay tests (core and command line) read it.
 */
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import {
  MassimMatchRunner,
  type MassimWireReply,
  type MassimWireTeam,
} from '../../../../src/core/protocols/massim/runner';
import type { Transcript } from '../../../../src/core/transcript/model';

function config(): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: 2, steps: 10, width: 20, height: 20 });
  return { ...base, server: { ...base.server, agentTimeout: 3000, waitBetweenSimulations: 1000 } };
}

const DIRECTIONS = ['n', 'e', 's', 'w'] as const;

/**
 * Agents written at the wire level: each logs in and moves. agentA1 closes its connection after the
 * request of step 2 and logs in again once agentA2 sees step 5; agentB1 opens a second connection
 * without closing the first at step 4; agentB2 only joins when agentA2 sees step 3.
 */
const agents: MassimWireTeam = (event): MassimWireReply | undefined => {
  if (event.kind === 'connected')
    return {
      frames: [JSON.stringify({ type: 'auth-request', content: { user: event.agent, pw: event.password } })],
    };
  if (event.kind !== 'frame') return undefined;
  const message = JSON.parse(event.text) as { type: string; content: { id: number; step: number } };
  if (message.type !== 'request-action') return undefined;
  const { id, step } = message.content;
  const action = JSON.stringify({
    type: 'action',
    content: { id, type: 'move', p: [DIRECTIONS[(step + event.agent.length) % 4]] },
  });
  if (event.agent === 'agentA1' && event.connection === 1 && step === 2) return { close: true };
  if (event.agent === 'agentB1' && event.connection === 1 && step === 4) return { reconnect: true };
  if (event.agent === 'agentA2' && step === 3) return { frames: [action], connect: ['agentB2'] };
  if (event.agent === 'agentA2' && step === 5) return { frames: [action], connect: ['agentA1'] };
  return { frames: [action] };
};

export async function recordWithReconnections(): Promise<Transcript> {
  const runner = new MassimMatchRunner({
    config: config(),
    teams: {},
    wireTeams: { A: agents, B: agents },
    connectAtStart: (agent) => agent !== 'agentB2',
    seed: 5,
    startTime: 2_000_000,
  });
  await runner.run();
  return structuredClone(runner.transcript);
}
