/**
 * The learner's rddlsim policy against a server behind the bridge that never answers: the session fails
 * with a message saying so (it does not wait for ever), and what was sent is kept in the transcript. A
 * server that ends rounds early (the emulated rddlsim server, whose round-end says only the turns used, as
 * the real one's): each such round gets a note naming the constraint the actions sent broke.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeChannel } from '../../../../../src/core/bridge/bridge-channel';
import { startBridgedClientRun } from '../../../../../src/core/protocols/rddlsim/playground/bridged-client-run';
import { rddlsimProtocol } from '../../../../../src/core/protocols/rddlsim/protocol';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { BridgeAccess } from '../../../../../src/core/session/bridge-route';
import { parseTranscriptJson } from '../../../../../src/core/transcript/json-format';
import { RddlsimHost } from '../../../../../src/core/protocols/rddlsim/host';
import { RddlsimHostEndpoint } from '../../../../../src/core/protocols/rddlsim/host-endpoint';
import {
  loadSessionEnvironment,
  type RddlSessionSource,
} from '../../../../../src/core/protocols/rddlsim/playground/environments';
import { GATE_POMDP_RDDL, GATE_RDDL } from '../../../../cli/protocols/rddlsim/gate-domain';
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

  it('a round the server ends early gets a note saying why, naming the constraint when the state is seen', async () => {
    for (const [rddl, instance, why] of [
      [GATE_RDDL, 'gate1', /: action precondition is false: t < 2 \| press \(line 9\), checked here for/],
      [GATE_POMDP_RDDL, 'gate2', /: rddlsim does so when it finds the actions sent not applicable/],
    ] as const) {
      const source: RddlSessionSource = {
        files: [{ name: 'gate.rddl', text: rddl }],
        instance,
        rddlsimQuirks: false,
      };
      const host = new RddlsimHost({
        rounds: 2,
        seed: 1,
        resolveInstance: (name) => (name === instance ? loadSessionEnvironment(source) : undefined),
      });
      const server = new RddlsimHostEndpoint(host, { log: () => undefined });
      // Both directions a task later, as through a socket.
      const later = (deliver: () => void) => void setTimeout(deliver, 0);
      const bridge: BridgeAccess = {
        async connect(_target, endpoint) {
          const run: { peer?: ReturnType<typeof endpoint.connect> } = {};
          const toServer = server.connect(
            {
              send: (bytes) => later(() => run.peer!.receive(bytes)),
              close: () => later(() => run.peer!.end('the server closed the connection')),
            },
            { id: 'server' },
          );
          run.peer = endpoint.connect(
            {
              send: (data) =>
                later(() =>
                  toServer.receive(
                    typeof data === 'string' ? new TextEncoder().encode(data) : (data as Uint8Array),
                  ),
                ),
              close: () => later(() => toServer.end()),
            },
            { id: 'rddlsim#1' },
          );
          return {} as BridgeChannel;
        },
        serve: () => () => undefined,
        describe: () => 'tcp://127.0.0.1:2323',
        silenceMs: 5_000,
      };
      const { services, ended } = recordingServices(inProcessPolicy(rddlsimProtocol.playground!));
      const noop = { ...config(), rounds: 2, options: source };
      noop.policy = { ...noop.policy, code: 'export function act() { return null; }' };
      const session = await startBridgedClientRun(noop, 'rddlsim', services, bridge);
      expect((await ended).status).toBe('finished');
      const transcript = parseTranscriptJson(session.exportJson().join(''));
      const notes = transcript.annotations
        .filter((a) => a.type === 'note')
        .map((a) => a.data as { code: string; message: string })
        .filter((note) => note.code === 'rddlsim.client.round-ended-early');
      expect(notes).toHaveLength(2);
      for (const note of notes) {
        expect(note.message).toMatch(/^the server ended the round before its horizon of 5 turns/);
        expect(note.message).toMatch(why);
      }
    }
  });
});
