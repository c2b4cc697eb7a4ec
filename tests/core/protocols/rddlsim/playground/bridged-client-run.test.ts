/**
 * The learner's rddlsim policy against a server behind the bridge that never answers: the session fails
 * with a message saying so (it does not wait for ever), and what was sent is kept in the transcript.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeChannel } from '../../../../../src/core/bridge/bridge-channel';
import { startBridgedClientRun } from '../../../../../src/core/protocols/rddlsim/playground/bridged-client-run';
import { rddlsimProtocol } from '../../../../../src/core/protocols/rddlsim/protocol';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { BridgeAccess } from '../../../../../src/core/session/bridge-route';
import { parseTranscriptJson } from '../../../../../src/core/transcript/json-format';
import { inProcessPolicy, recordingServices } from '../../../session/playground-fakes';

function config(): SessionConfig {
  const sample = rddlsimProtocol.samples.find((s) => s.id === rddlsimProtocol.defaultSample)!;
  return {
    protocol: rddlsimProtocol.id,
    environment: rddlsimProtocol.defaultEnvironment,
    rounds: 1,
    seed: 1,
    delayMs: 0,
    budgetMs: 10_000,
    policy: { code: sample.code, language: sample.language, fileName: 'policy.ts', level: 'policy', seed: 1 },
    startPaused: false,
  };
}

describe('rddlsim through the bridge', () => {
  it('a server that never answers ends the session with a timeout message, the request kept', async () => {
    const { services, ended } = recordingServices(inProcessPolicy(rddlsimProtocol.playground!));
    const sent: string[] = [];
    let closedWith: string | undefined;
    const bridge: BridgeAccess = {
      async connect(_target, endpoint) {
        endpoint.connect(
          {
            send: (data) =>
              void sent.push(typeof data === 'string' ? data : new TextDecoder().decode(data as Uint8Array)),
            close: (reason) => void (closedWith = reason),
          },
          { id: 'rddlsim#1' },
        );
        return {} as BridgeChannel;
      },
      serve: () => () => undefined,
      describe: () => 'tcp://127.0.0.1:2323',
      // The bridge's --response-timeout, which the run takes as its limit.
      silenceMs: 300,
    };
    const session = await startBridgedClientRun(config(), 'rddlsim', services, bridge);
    const last = await ended;
    expect(last.status).toBe('failed');
    expect(last.error).toContain('the server sent nothing for 0.3 s');
    expect(sent.join('')).toContain('<session-request>');
    expect(closedWith).toContain('does not answer');
    const transcript = parseTranscriptJson(session.exportJson().join(''));
    expect(transcript.messages.some((m) => m.dir === 'c2s' && m.text?.includes('<session-request>'))).toBe(
      true,
    );
  });
});
