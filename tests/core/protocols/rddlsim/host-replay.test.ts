import { describe, expect, it } from 'vitest';
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

  it('refuses a recording that does not say what it played', async () => {
    const recording = loadRecording('sysadmin_inst_mdp__1');
    const headless: Transcript = {
      ...recording,
      messages: recording.messages.filter((m) => !m.text?.includes('<session-init>')),
    };
    await expect(replayOnEmulatedHost(headless)).rejects.toThrow(/no session-init with a task/);
  });
});
