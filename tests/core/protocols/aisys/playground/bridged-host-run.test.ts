/**
 * A course client answered by the page's emulated aisysprojserver through the bridge: the bridge replaced
 * by what it hands the run (an HTTP listen port's endpoint), the client by requests written here.
 */
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../../../../src/core/protocols/contract';
import { startBridgedAisysHostRun } from '../../../../../src/core/protocols/aisys/playground/bridged-host-run';
import type { AisysOverview } from '../../../../../src/core/protocols/aisys/playground/run-book';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { Transcript } from '../../../../../src/core/transcript/model';
import { fakeListenBridge, recordingServices } from '../../../session/playground-fakes';

const CONFIG: SessionConfig = {
  protocol: 'aisys',
  environment: 'nim',
  rounds: 1,
  seed: 5,
  delayMs: 0,
  budgetMs: 1000,
  policy: { code: '', language: 'ts', level: 'policy' } as SessionConfig['policy'],
  startPaused: false,
};

const fakeBridge = () => fakeListenBridge('http://127.0.0.1:5000');

const put = (path: string, body: unknown): HttpMessage => ({
  meta: { method: 'PUT', path, headers: { 'content-type': 'application/json' } },
  body: JSON.stringify(body),
});

describe('the aisys inbound run', () => {
  it('answers a client with the agent config it shows, recording every exchange on its channel', async () => {
    const bridge = fakeBridge();
    const run = await startBridgedAisysHostRun(CONFIG, 'aisys', recordingServices().services, bridge.access);
    const listening = (JSON.parse(run.exportJson().join('')) as Transcript).annotations.find(
      (a) => a.type === 'note',
    );
    const message = (listening!.data as { message: string }).message;
    const agentConfig = JSON.parse(/agent config: (\{.*\})/.exec(message)![1]!) as Record<string, string>;
    expect(agentConfig).toMatchObject({ agent: 'agent', env: 'nim', url: 'http://127.0.0.1:5000/' });

    const responses: HttpMessage[] = [];
    const peer = bridge.served
      .get('aisys')!
      .connect(
        { send: (response) => responses.push(response as HttpMessage), close: () => undefined },
        { id: 'aisys#1', remote: '127.0.0.1:40000' },
      );
    const body = {
      agent: 'agent',
      pwd: agentConfig.pwd,
      actions: [],
      parallel_runs: true,
      protocol_version: 1,
    };
    peer.receive(put('/act/nim', body));
    peer.receive(put('/act/nim', { ...body, pwd: 'wrong' }));
    expect(responses).toHaveLength(2);
    expect(responses[0]!.meta.status).toBe(200);
    expect(JSON.parse(responses[0]!.body)).toHaveProperty('action_requests');
    expect(responses[1]!.body).toMatch(/password/i);

    const transcript = JSON.parse(run.exportJson().join('')) as Transcript;
    const exchanges = transcript.messages.filter((m) => m.http);
    expect(exchanges.map((m) => [m.dir, m.channel])).toEqual([
      ['c2s', 'nim/agent'],
      ['s2c', 'nim/agent'],
      ['c2s', 'nim/agent'],
      ['s2c', 'nim/agent'],
    ]);
    expect(exchanges[1]!.http!.exchange).toBe(exchanges[0]!.http!.exchange);
    const overview = run.ask('overview', []) as AisysOverview;
    expect(overview).toBeDefined();
    expect(JSON.stringify(overview)).toContain('agent');
    run.stop();
    expect(bridge.served.has('aisys')).toBe(false);
  });

  it('fails to start with a clear error for an environment the emulated server does not know', () => {
    expect(() =>
      startBridgedAisysHostRun(
        { ...CONFIG, environment: 'chess' },
        'aisys',
        recordingServices().services,
        fakeBridge().access,
      ),
    ).toThrow("there is no aisys environment 'chess'");
  });
});
