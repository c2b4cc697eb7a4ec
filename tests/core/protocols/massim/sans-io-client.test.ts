/**
 * The MASSim agent client in the contract's SansIoClient shape, driven by `driveClient` as the command line
 * drives it: it logs in when connected, asks a decision for each request-action, keeps reading while the
 * policy thinks (a late decision is dropped, not sent), and a failing policy sends nothing for its request.
 */
import { describe, expect, it } from 'vitest';
import type { MassimAgentEvent } from '../../../../src/core/protocols/massim/client';
import {
  massimAgentSansIoClient,
  massimDecisionMaker,
  massimDecisionRequest,
} from '../../../../src/core/protocols/massim/sans-io-client';
import { driveClient } from '../../../../src/core/session/client-driver';

const percept = {
  lastActionParams: [],
  role: 'default',
  violations: [],
  deactivated: false,
  goalZones: [],
  roleZones: [],
  score: 0,
  lastAction: '',
  norms: [],
  things: [],
  attached: [],
  lastActionResult: '',
  tasks: [],
  events: [],
  energy: 100,
};
const request = (step: number) =>
  JSON.stringify({ type: 'request-action', content: { step, id: step, time: 0, percept, deadline: 10 } });
const simStart = JSON.stringify({
  type: 'sim-start',
  content: { time: 0, percept: { name: 'agentA1', team: 'A', teamSize: 1, steps: 10, role: 'default' } },
});

/** Waits until the condition holds, turning the event loop between looks. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('massimAgentSansIoClient', () => {
  it('logs in, reads on while its policy thinks, and drops the decision the next request overtook', async () => {
    const sent: string[] = [];
    const events: MassimAgentEvent[] = [];
    const steps: number[] = [];
    let release: () => void = () => undefined;
    const client = driveClient(
      massimAgentSansIoClient(
        { user: 'agentA1', password: '1', team: 'A', teamAccounts: ['agentA1'] },
        (event) => events.push(event),
      ),
      massimDecisionMaker(async (decision) => {
        steps.push(decision.step);
        if (decision.step === 0) await new Promise<void>((resolve) => (release = resolve));
        return { type: 'move', p: ['n'] };
      }),
    );
    const peer = client.connect({ send: (text) => sent.push(text), close: () => undefined }, { id: 'a' });
    expect(sent).toEqual(['{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}']);
    peer.receive('{"type":"auth-response","content":{"result":"ok"}}');
    peer.receive(simStart);
    peer.receive(request(0));
    // The client reads the next request while the first decision is still out.
    peer.receive(request(1));
    expect(events.map((event) => event.kind)).toEqual(['logged-in', 'sim-start']);
    release();
    await until(() => sent.length === 2);
    expect(steps).toEqual([0, 1]);
    expect(sent[1]).toBe('{"type":"action","content":{"id":1,"type":"move","p":["n"]}}');
    expect(events).toContainEqual({ kind: 'decision-outdated', agent: 'agentA1', id: 0 });
  });

  it('sends nothing for a request whose decision failed, and reports it; a later one is answered', async () => {
    const sent: string[] = [];
    const events: MassimAgentEvent[] = [];
    const asked: { hook: string; site: unknown; step: number }[] = [];
    const client = driveClient(
      massimAgentSansIoClient(
        { user: 'agentA1', password: '1', team: 'A', teamAccounts: ['agentA1'] },
        (event) => events.push(event),
      ),
      async (decision) => {
        asked.push({ hook: decision.hook, site: decision.site, step: massimDecisionRequest(decision).step });
        return massimDecisionRequest(decision).step === 0
          ? { ok: false, fault: { kind: 'crash', message: 'act threw' }, logs: [], ms: 0 }
          : { ok: true, value: { type: 'skip' }, logs: [], ms: 0 };
      },
    );
    const peer = client.connect({ send: (text) => sent.push(text), close: () => undefined }, { id: 'a' });
    peer.receive('{"type":"auth-response","content":{"result":"ok"}}');
    peer.receive(simStart);
    peer.receive(request(0));
    await until(() => events.some((event) => event.kind === 'decision-failed'));
    expect(events.at(-1)).toMatchObject({ kind: 'decision-failed', id: 0, error: { message: 'act threw' } });
    peer.receive(request(1));
    await until(() => sent.length === 2);
    expect(sent[1]).toBe('{"type":"action","content":{"id":1,"type":"skip","p":[]}}');
    expect(asked).toEqual([
      { hook: 'act', site: { round: 1, turn: 0 }, step: 0 },
      { hook: 'act', site: { round: 1, turn: 1 }, step: 1 },
    ]);
  });
});
