/**
 * The rddlsim client in the contract's SansIoClient shape: driven by `driveClient` against the emulated
 * rddlsim host, a real policy (a sample, in the policy runtime) answering every decision it asks for. It
 * never reads the server's next message before the previous decision is answered, and the session it plays
 * is one the protocol's own machines accept.
 */
import { describe, expect, it } from 'vitest';
import { createInProcessEndpoint } from '../../../../src/core/policy/in-process-endpoint';
import { PolicySupervisor } from '../../../../src/core/policy/supervisor';
import type { DecisionRequest } from '../../../../src/core/protocols/contract';
import { instanceSummary } from '../../../../src/core/protocols/rddlsim/action-encoding';
import { RddlsimHost } from '../../../../src/core/protocols/rddlsim/host';
import { RddlsimHostEndpoint } from '../../../../src/core/protocols/rddlsim/host-endpoint';
import { loadExampleEnvironment } from '../../../../src/core/protocols/rddlsim/playground/environments';
import { rddlsimProtocol } from '../../../../src/core/protocols/rddlsim/protocol';
import { rddlsimSansIoClient } from '../../../../src/core/protocols/rddlsim/sans-io-client';
import { driveClient } from '../../../../src/core/session/client-driver';
import { playInMemory } from '../../../../src/core/session/in-memory-play';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';
import { validateTranscript } from '../../../../src/core/transcript/validate';

function emulatedServer(rounds: number) {
  const { model, task } = loadExampleEnvironment(rddlsimProtocol.defaultEnvironment);
  const host = new RddlsimHost({
    rounds,
    seed: 3,
    resolveInstance: (name) => (name === model.info.instance ? { model, task } : undefined),
  });
  const ends: number[] = [];
  const endpoint = new RddlsimHostEndpoint(host, {
    log: () => undefined,
    onSessionEnd: (end) => ends.push(end.rounds),
  });
  return { model, endpoint, ends };
}

describe('the rddlsim client as a SansIoClient', () => {
  it('plays a whole session for a sample policy; every decision is asked in order; the transcript is valid', async () => {
    const { model, endpoint, ends } = emulatedServer(2);
    const sample = rddlsimProtocol.samples.find((s) => s.id === rddlsimProtocol.defaultSample)!;
    const supervisor = new PolicySupervisor({ spawn: createInProcessEndpoint, budgetMs: 5_000 });
    const loaded = await supervisor.load({
      code: sample.code,
      language: sample.language,
      level: 'policy',
      fileName: 'policy.ts',
      seed: 1,
      context: { instance: instanceSummary(model.info) },
    });
    expect(loaded.ok).toBe(true);
    const asked: DecisionRequest[] = [];
    let pending = 0;
    const seenTasks: string[] = [];
    const client = rddlsimSansIoClient(
      { problemName: model.info.instance },
      {
        sessionInit: (event) => {
          seenTasks.push(event.task ?? '');
          return model.info;
        },
      },
    );
    const recorder = new TranscriptRecorder({ protocol: 'rddlsim' });
    let received = 0;
    const counting = {
      connect: (sink: Parameters<typeof endpoint.connect>[0], connection: { id: string }) => {
        const peer = endpoint.connect(
          {
            send: (bytes) => {
              received++;
              sink.send(bytes);
            },
            close: (reason) => sink.close(reason),
          },
          connection,
        );
        return peer;
      },
    };
    const driven = driveClient(client, async (request) => {
      // Nothing is read while a decision is out: the server has sent nothing since it was asked.
      const before = received;
      pending++;
      expect(pending).toBe(1);
      asked.push(request);
      const outcome = await supervisor.call(request.hook, request.args, {}, request.site);
      expect(received).toBe(before);
      pending--;
      return outcome;
    });
    await playInMemory({ protocol: rddlsimProtocol, host: counting, client: driven, recorder }).done;
    supervisor.dispose();

    expect(ends).toEqual([2]);
    expect(seenTasks[0]).toContain('domain');
    const hooks = asked.map((request) => request.hook);
    expect(hooks[0]).toBe('onRoundStart');
    expect(hooks.filter((hook) => hook === 'onRoundEnd')).toHaveLength(2);
    expect(hooks.at(-1)).toBe('onSessionEnd');
    const turns = asked.filter((request) => request.hook === 'act');
    expect(turns.length).toBe(2 * model.info.horizon);
    expect(turns[1]!.site).toEqual({ round: 1, turn: 2 });
    const { transcript } = recorder;
    expect(validateTranscript(transcript, rddlsimProtocol).violations).toEqual([]);
    const reader = rddlsimProtocol.createReader();
    reader.append(transcript.messages, []);
    expect(reader.rounds.map((round) => round.stepRewards.length)).toEqual([
      model.info.horizon,
      model.info.horizon,
    ]);
  });

  it('a failing policy closes the connection with the reason, after what the server sent', async () => {
    const { model, endpoint } = emulatedServer(1);
    const recorder = new TranscriptRecorder({ protocol: 'rddlsim' });
    const driven = driveClient(rddlsimSansIoClient({ problemName: model.info.instance }), async (request) =>
      request.hook === 'act'
        ? { ok: false, fault: { kind: 'call', message: 'act threw' }, logs: [], ms: 0 }
        : { ok: true, value: undefined, logs: [], ms: 0 },
    );
    await playInMemory({ protocol: rddlsimProtocol, host: endpoint, client: driven, recorder }).done;
    const close = recorder.transcript.messages.find((m) => m.kind === 'close' && m.dir === 'c2s');
    expect(close?.text).toBe('the policy failed in act on round 1, turn 1: act threw');
    expect(recorder.transcript.messages.filter((m) => m.dir === 'c2s' && m.kind === 'data')).toHaveLength(2);
  });
});
