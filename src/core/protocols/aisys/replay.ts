/**
 * An aisys recording played again against the emulated server: every recorded request, in order, is handed
 * to a fresh `AisysHost` and its response compared with the recorded response of the same exchange
 * (status, then the JSON body member by member).
 *
 * The server is set up as the recording says: a Protoplay recording names its ready-made environment, seed
 * and whether the real server's bugs were kept; the accounts are the agents and passwords its requests
 * carry. A recording of a real server names no environment: the user picks the ready-made one to play its
 * `/act/<env>` paths with, and the seed (runs draw their randomness from it), and the report says so.
 */
import { ProtoplayError } from '../../errors';
import type { Transcript, TranscriptMessage } from '../../transcript/model';
import type { HttpMessage } from '../contract';
import {
  compareConversation,
  mergeComparisons,
  ReplayPacer,
  type ReplayPlan,
  type ReplayReport,
  type ReplaySetup,
  type TranscriptReplay,
} from '../replay';
import { actPathEnvironment } from './codec';
import { AISYS_ENVIRONMENTS, findAisysEnvironment } from './environments';
import { AisysHost } from './host';
import { bodyOf } from './recorded-readings';

const requestOf = (message: TranscriptMessage): HttpMessage => {
  const { exchange: _exchange, ...meta } = message.http!;
  return { meta, ...bodyOf(message) };
};

/** The agents and passwords the recording's `/act` requests carry, by environment (the first password seen). */
function accountsOf(requests: readonly TranscriptMessage[]): Map<string, Map<string, string>> {
  const accounts = new Map<string, Map<string, string>>();
  for (const request of requests) {
    const env = actPathEnvironment(request.http?.path);
    if (env === undefined) continue;
    const agents = accounts.get(env) ?? new Map<string, string>();
    accounts.set(env, agents);
    try {
      const body = JSON.parse(request.text ?? '') as { agent?: unknown; pwd?: unknown };
      if (typeof body.agent === 'string' && typeof body.pwd === 'string' && !agents.has(body.agent))
        agents.set(body.agent, body.pwd);
    } catch {
      // A body that is not JSON names no account; the server answers it as it would.
    }
  }
  return accounts;
}

const requestsOf = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data' && m.dir === 'c2s' && m.http);

/** The aisys replay. */
export const aisysReplay: TranscriptReplay = {
  plan(transcript): ReplayPlan {
    const named = transcript.meta.environment;
    const seed = transcript.meta.seed;
    return {
      ...(typeof named === 'string' && findAisysEnvironment(named) ? { environment: named } : {}),
      ...(typeof seed === 'number' ? { seed } : {}),
      choices: AISYS_ENVIRONMENTS.map(({ id, label }) => ({ id, label })),
      ...(requestsOf(transcript).length === 0 ? { impossible: 'the recording holds no request' } : {}),
    };
  },

  async run(transcript, setup: ReplaySetup = {}, watch): Promise<ReplayReport> {
    const plan = aisysReplay.plan(transcript);
    if (plan.impossible) throw new ProtoplayError('aisys.replay.empty', plan.impossible);
    const environmentId = plan.environment ?? setup.environment;
    if (environmentId === undefined)
      throw new ProtoplayError(
        'aisys.replay.environment',
        'the recording does not say which environment it played: choose one',
      );
    const preset = findAisysEnvironment(environmentId);
    if (!preset)
      throw new ProtoplayError('aisys.replay.environment', `there is no environment '${environmentId}'`);
    const seed = plan.seed ?? setup.seed ?? 0;
    const faithfulBugs = transcript.meta.faithfulBugs !== false;
    let now = transcript.startedAt;
    const host = new AisysHost({ seed, faithfulBugs, now: () => now });
    const requests = requestsOf(transcript);
    for (const [env, agents] of accountsOf(requests)) {
      host.addEnvironment(env, preset.envClass, preset.config, preset.label);
      for (const [agent, pwd] of agents) host.addAgent(env, agent, pwd);
    }
    const responses = new Map<number, TranscriptMessage>();
    for (const message of transcript.messages)
      if (message.kind === 'data' && message.dir === 's2c' && message.http)
        responses.set(message.http.exchange, message);
    const parts = [];
    const pacer = new ReplayPacer(requests.length, watch);
    for (const [position, request] of requests.entries()) {
      if (pacer.due()) await pacer.pause(position);
      now = transcript.startedAt + request.t;
      const emulated = host.handle(requestOf(request));
      const recorded = responses.get(request.index);
      // A request the recording has no response to (the recording ended) is not compared.
      if (!recorded) continue;
      parts.push(
        compareConversation(
          [recorded],
          [
            {
              text: emulated.body,
              ...(emulated.meta.status !== undefined ? { status: emulated.meta.status } : {}),
            },
          ],
          {
            conn: recorded.conn,
            positionFrom: position,
            ...(recorded.channel ? { channel: recorded.channel } : {}),
          },
        ),
      );
    }
    pacer.finish();
    const notes: string[] = [];
    if (!faithfulBugs) notes.push("the real server's bugs fixed, as the recording was played");
    if (!plan.environment)
      notes.push(
        `the recording does not say which environment it played: its /act paths were served as ${preset.label}`,
      );
    if (plan.seed === undefined)
      notes.push('the recording carries no seed: runs draw their randomness from the seed given here');
    return {
      environment: preset.label,
      environmentFrom: plan.environment ? 'recording' : 'chosen',
      seed,
      seedFrom: plan.seed !== undefined ? 'recording' : setup.seed !== undefined ? 'chosen' : 'default',
      ...mergeComparisons(parts),
      notes,
    };
  },
};
