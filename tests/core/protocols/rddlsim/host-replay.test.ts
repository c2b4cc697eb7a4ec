import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl/load';
import { decodeTask } from '../../../../src/core/protocols/rddlsim/client';
import { encodeFrame } from '../../../../src/core/protocols/rddlsim/framing';
import { RddlsimHost } from '../../../../src/core/protocols/rddlsim/host';
import { replayOnEmulatedHost } from '../../../../src/core/protocols/rddlsim/host-replay';
import type { Transcript } from '../../../../src/core/transcript/model';
import { loadRecording, MAIN_SESSIONS } from './recordings';

describe('a recorded session replayed against the emulated server', async () => {
  it.each(MAIN_SESSIONS)(
    '%s: the emulator answers every client message as the real server did',
    async (name) => {
      const recording = loadRecording(name);
      const serverMessages = recording.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length;
      const result = await replayOnEmulatedHost(recording);
      expect(result.difference).toBeUndefined();
      expect(result.agreed).toBe(serverMessages);
      expect(result.instance).toBe(name);
    },
  );

  it('finds the first server message that differs, and the client message it answered', async () => {
    const recording = loadRecording('sysadmin_inst_mdp__1');
    // A reward well into the session changed in the recording.
    const rewarded = recording.messages.filter(
      (m) => m.dir === 's2c' && /<immediate-reward>[^<]+</.test(m.text ?? ''),
    );
    expect(rewarded.length).toBeGreaterThan(60);
    const changed = rewarded[60]!;
    const text = changed.text!.replace(
      /<immediate-reward>([^<]+)</,
      (_, r: string) => `<immediate-reward>${Number(r) + 1}<`,
    );
    const damaged: Transcript = {
      ...recording,
      messages: recording.messages.map((m) => (m === changed ? { ...m, text } : m)),
    };
    const result = await replayOnEmulatedHost(damaged);
    expect(result.difference?.recordedIndex).toBe(changed.index);
    expect(result.difference?.recorded).toBe(text);
    expect(result.difference?.emulated).toContain('<immediate-reward>');
    const previousClient = recording.messages
      .filter((m) => m.dir === 'c2s' && m.index < changed.index)
      .at(-1)!;
    expect(result.difference?.afterClientIndex).toBe(previousClient.index);
    const before = recording.messages.filter(
      (m) => m.kind === 'data' && m.dir === 's2c' && m.index < changed.index,
    );
    expect(result.agreed).toBe(before.length);
  });

  it('says where a recording that ends early stops agreeing', async () => {
    const recording = loadRecording('elevators_inst_mdp__1');
    const lastServer = recording.messages.filter((m) => m.dir === 's2c' && m.kind === 'data').at(-1)!;
    const cut: Transcript = { ...recording, messages: recording.messages.filter((m) => m !== lastServer) };
    const result = await replayOnEmulatedHost(cut);
    expect(result.difference?.recordedIndex).toBeUndefined();
    const clockless = (text: string | undefined) => text?.replace(/<time-left>[^<]*</g, '<time-left><');
    expect(clockless(result.difference?.emulated)).toBe(clockless(lastServer.text));
    expect(lastServer.text).toContain('<session-end>');
  });

  it("replays a server's later session as that session: its id, and its seed from the server's", async () => {
    // The recorded client's messages played as the third session of a server started with seed 5, the
    // way rddlsim's server numbers the sessions it serves: session 3 simulates with seed 5 + 2.
    const recording = loadRecording('sysadmin_inst_mdp__1');
    const init = recording.messages.find((m) => m.dir === 's2c' && m.text?.includes('<session-init>'))!;
    const task = decodeTask(/<task>([^<]*)</.exec(init.text!)![1]!)!;
    const model = loadRddl([{ name: 'task', text: task }]);
    const host = new RddlsimHost({
      resolveInstance: () => ({ model, task }),
      rounds: Number(/<num-rounds>(\d+)</.exec(init.text!)![1]),
      seed: 5,
      generator: 'rddlsim',
      rddlsimQuirks: true,
    });
    host.accept();
    host.accept();
    const third = host.accept();
    const messages: Transcript['messages'] = [];
    for (const message of recording.messages.filter((m) => m.kind === 'data' && m.dir === 'c2s')) {
      messages.push({ ...message, index: messages.length });
      for (const effect of third.receive(encodeFrame(message.text!, 'nul')))
        if (effect.kind === 'send')
          messages.push({ ...message, index: messages.length, dir: 's2c', text: effect.text });
    }
    expect(messages.find((m) => m.text?.includes('<session-init>'))?.text).toContain(
      '<session-id>3</session-id>',
    );
    const served: Transcript = { ...recording, meta: {}, messages };
    const agreedAll = messages.filter((m) => m.dir === 's2c').length;
    // The server's seed given for a recording without one...
    const given = await replayOnEmulatedHost(served, { seed: 5 });
    expect(given).toMatchObject({ difference: undefined, agreed: agreedAll, sessionId: 3, seed: 5 });
    // ...or the session's own seed, as Protoplay's recordings carry it.
    const carried = await replayOnEmulatedHost({ ...served, meta: { seed: 7 } });
    expect(carried).toMatchObject({ difference: undefined, agreed: agreedAll, sessionId: 3, seed: 5 });
    // Another server seed gives other rewards: the seed is what made them agree.
    const other = await replayOnEmulatedHost(served, { seed: 6 });
    expect(other.difference?.recorded).toMatch(/<immediate-reward>/);
  });

  it('refuses a recording that does not say what it played', async () => {
    const recording = loadRecording('sysadmin_inst_mdp__1');
    const headless: Transcript = {
      ...recording,
      messages: recording.messages.filter((m) => !m.text?.includes('<session-init>')),
    };
    await expect(replayOnEmulatedHost(headless)).rejects.toThrow(/no session-init with a task/);
  });
});
