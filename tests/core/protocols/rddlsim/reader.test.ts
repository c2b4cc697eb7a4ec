import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importRddlsimRecordFile } from '../../../../src/core/protocols/rddlsim/recording-formats';
import { createRddlsimReader } from '../../../../src/core/protocols/rddlsim/reader';

const conformance = resolve(process.cwd(), '../shared/conformance/rddlsim');

function readRecording(name: string) {
  const transcript = importRddlsimRecordFile(readFileSync(resolve(conformance, name)), { name });
  const reader = createRddlsimReader();
  reader.append(transcript.messages, transcript.annotations);
  return { transcript, reader };
}

/** The text of an element in a message, read independently of the codec under the reader. */
function element(text: string | undefined, name: string): string {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(text ?? '');
  if (!match) throw new Error(`no <${name}> in ${text?.slice(0, 80)}`);
  return match[1]!;
}

describe('rddlsim transcript reader on recorded sessions', () => {
  it('gives every message a row with its type, and places turns and actions in rounds', () => {
    const { transcript, reader } = readRecording('sysadmin_inst_mdp__1.transcript');
    expect(reader.messages).toHaveLength(transcript.messages.length);
    const roots = transcript.messages.map((m) =>
      m.kind === 'data' ? /<([a-z-]+)/.exec(m.text ?? '')?.[1] : m.kind,
    );
    expect(reader.messages.map((m) => m.type)).toEqual(roots);
    const firstTurn = reader.messages.find((m) => m.type === 'turn')!;
    expect(firstTurn).toMatchObject({ round: 1, turn: 1 });
    const lastActions = reader.messages.findLast((m) => m.type === 'actions')!;
    expect(lastActions.round).toBe(3);
    expect(lastActions.turn).toBe(
      Number(element(transcript.messages[lastActions.index - 1]!.text, 'turn-num')),
    );
  });

  it('reports each round total as the round-end message states it', () => {
    const { transcript, reader } = readRecording('sysadmin_inst_mdp__1.transcript');
    const ends = transcript.messages.filter((m) => m.text?.includes('<round-end>'));
    expect(reader.rounds.map((r) => r.total)).toEqual(
      ends.map((m) => Number(element(m.text, 'round-reward'))),
    );
    expect(reader.rounds.map((r) => r.endIndex)).toEqual(ends.map((m) => m.index));
  });

  it('collects one reward per executed step, summing to the round total when undiscounted', () => {
    const { transcript, reader } = readRecording('sysadmin_inst_mdp__1.transcript');
    for (const round of reader.rounds) {
      const end = transcript.messages[round.endIndex!]!;
      expect(round.stepRewards).toHaveLength(Number(element(end.text, 'turns-used')));
      // sysadmin's instance has discount 1.0 in the recording, so the steps add up to the round reward.
      const sum = round.stepRewards.reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(round.total!, 6);
    }
  });

  it('keeps the observed fluents of each turn, exactly as sent', () => {
    const { transcript, reader } = readRecording('sysadmin_inst_mdp__1.transcript');
    const turnMessages = transcript.messages.filter((m) => m.text?.includes('<turn>'));
    expect(reader.turns).toHaveLength(turnMessages.length);
    const first = reader.turns[0]!;
    const text = turnMessages[0]!.text!;
    expect(first.observed.length).toBe(text.split('<observed-fluent>').length - 1);
    const sample = first.observed[0]!;
    expect(text).toContain(
      `<fluent-name>${sample.name}</fluent-name>${sample.args.map((a) => `<fluent-arg>${a}</fluent-arg>`).join('')}<fluent-value>${sample.value}</fluent-value>`,
    );
  });

  it('marks the POMDP first turn as having no observation', () => {
    const { reader } = readRecording('sysadmin_inst_pomdp__1.transcript');
    expect(reader.turns[0]).toMatchObject({ turn: 1, noObservation: true, observed: [] });
    expect(reader.turns[1]!.noObservation).toBe(false);
    expect(reader.turns[1]!.observed.length).toBeGreaterThan(0);
  });

  it('shows unreadable messages as rows with the reason instead of failing', () => {
    const reader = createRddlsimReader();
    reader.append(
      [{ index: 0, conn: 'c', dir: 'c2s', t: 0, kind: 'data', text: '<session-request><oops' }],
      [],
    );
    expect(reader.messages[0]).toMatchObject({ type: 'session-request' });
    expect(reader.messages[0]!.unreadable).toBeTruthy();
  });

  it('attaches true-state annotations to the turn and notes to the console', () => {
    const reader = createRddlsimReader();
    reader.append(
      [
        {
          index: 0,
          conn: 'c',
          dir: 's2c',
          t: 0,
          kind: 'data',
          text: '<turn><turn-num>1</turn-num><time-left>1.0</time-left><immediate-reward>0.0</immediate-reward><no-observed-fluents/></turn>',
        },
      ],
      [
        { index: 0, type: 'world', data: { state: [{ name: 'running', args: ['c1'], value: true }] } },
        { index: 0, type: 'note', data: { text: 'the real server would exit here' } },
        { index: 0, type: 'policy-log', data: { level: 'warn', text: 'hello' } },
      ],
    );
    expect(reader.turns[0]!.world).toEqual([{ name: 'running', args: ['c1'], value: 'true' }]);
    expect(reader.notes).toEqual([
      { index: 0, kind: 'note', text: 'the real server would exit here' },
      { index: 0, kind: 'policy-log', text: 'hello', level: 'warn' },
    ]);
  });
});
