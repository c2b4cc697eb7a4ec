/**
 * The client against the course's own client: the recorded sessions of `client.py` (04: `run(...,
 * run_limit=6)` with perfect Nim, 05: an `Agent` with `abandon_old_runs=True` and a random policy) are
 * replayed to the client, which answers the recorded responses with the same decisions (perfect Nim for
 * 04, the recorded actions for 05). It must send the recorded requests byte for byte (method, path, body)
 * and stop where `client.py` stopped.
 */
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import { AisysClient, type AisysClientOutcome } from '../../../../src/core/protocols/aisys/client';
import { localDecide } from '../../../../src/core/protocols/aisys/decide';
import type { AisysDecide } from '../../../../src/core/protocols/aisys/policy-api';
import { exchangesOf, type RecordingName } from './recordings';

const perfect = localDecide((percept) => (percept as number) % 4 || 1);

/** Replays a recording's responses to a client; returns what it sent and how it ended. */
async function replay(
  name: RecordingName,
  options: { runLimit?: number; abandonOldRuns?: boolean },
  decide: AisysDecide = perfect,
): Promise<{ sent: HttpMessage[]; expected: HttpMessage[]; outcome: AisysClientOutcome }> {
  const exchanges = exchangesOf(name);
  const first = JSON.parse(exchanges[0]!.request.body) as { agent: string; pwd: string };
  const env = /\/act\/(.+)$/.exec(exchanges[0]!.request.meta.path!)![1]!;
  const client = new AisysClient({
    agent: first.agent,
    pwd: first.pwd,
    env,
    url: 'http://127.0.0.1:5001/',
    decide,
    clientName: 'py-client-v1',
    ...options,
  });
  const sent: HttpMessage[] = [];
  const peer = client.connect({
    send: (request) => {
      sent.push(request);
      const answer = exchanges[sent.length - 1];
      if (answer) queueMicrotask(() => peer.receive(answer.response));
    },
    close: () => undefined,
  });
  const outcome = await client.ended;
  return { sent, expected: exchanges.map((exchange) => exchange.request), outcome };
}

describe('the client plays as client.py', () => {
  it('04: run limit 6, perfect play, stops with the last requests unanswered', async () => {
    const { sent, expected, outcome } = await replay('04-client-py-runlimit', { runLimit: 6 });
    expect(outcome).toEqual({ kind: 'finished', reason: 'run-limit' });
    expect(sent.map((request) => request.meta.method)).toEqual(expected.map(() => 'PUT'));
    expect(sent.map((request) => request.meta.path)).toEqual(expected.map((request) => request.meta.path));
    expect(sent.map((request) => request.body)).toEqual(expected.map((request) => request.body));
  });

  it('05: abandons the old run it finds at the start, then plays new ones', async () => {
    const recorded = new Map<string, unknown>();
    for (const { request } of exchangesOf('05-client-agent-abandon'))
      for (const action of (
        JSON.parse(request.body) as { actions: { run: string; act_no: number; action: unknown }[] }
      ).actions)
        recorded.set(`${action.run}#${action.act_no}`, action.action);
    const asRecorded = localDecide((_percept, run) => recorded.get(`${run.id}#${run.actNo}`) as number);
    const { sent, expected, outcome } = await replay(
      '05-client-agent-abandon',
      { runLimit: 3, abandonOldRuns: true },
      asRecorded,
    );
    expect(outcome.kind).toBe('finished');
    expect(sent.map((request) => request.body)).toEqual(expected.map((request) => request.body));
  });
});
