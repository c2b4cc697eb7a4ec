/**
 * rddlsim's replay read as the common report: the real server's recording is reproduced, a changed
 * reward is the first difference, located at its message.
 */
import { describe, expect, it } from 'vitest';
import { findProtocol } from '../../../../src/core/protocols/registry';
import { rddlsimReplay } from '../../../../src/core/protocols/rddlsim/replay';
import type { Transcript } from '../../../../src/core/transcript/model';
import { loadRecording } from './recordings';

describe('rddlsim replay report', () => {
  it('reproduces the real server recording and finds a changed reward', async () => {
    expect(await findProtocol('rddlsim')!.replay!.load()).toBe(rddlsimReplay);
    const recording = loadRecording('sysadmin_inst_mdp__1');
    const serverMessages = recording.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length;
    const same = await rddlsimReplay.run(recording);
    expect(same).toMatchObject({ compared: serverMessages, differing: 0, environmentFrom: 'recording' });
    const changed = recording.messages.filter((m) => /<immediate-reward>[^<]+</.test(m.text ?? ''))[5]!;
    const text = changed.text!.replace(
      /<immediate-reward>([^<]+)</,
      (_, r: string) => `<immediate-reward>${Number(r) + 1}<`,
    );
    const damaged: Transcript = {
      ...recording,
      messages: recording.messages.map((m) => (m === changed ? { ...m, text } : m)),
    };
    const report = await rddlsimReplay.run(damaged);
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({ recordedIndex: changed.index, recordedText: text });
    expect(report.first?.emulatedText).toContain('<immediate-reward>');
  });
});
