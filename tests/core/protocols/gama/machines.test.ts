import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { encodeRequest, gamaClientMachine, gamaServerMachine } from '../../../../src/core/protocols/gama';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { playRecorded } from './support';

/** Messages from `> text` (GAMA) and `< text` (API) lines; `<close` is the server closing. */
function conversation(...lines: string[]): TranscriptMessage[] {
  return lines.map((line, index) => {
    const dir = line.startsWith('>') ? 'c2s' : 's2c';
    if (line === '<close') return { index, conn: 'c', dir, t: 0, kind: 'close' };
    return { index, conn: 'c', dir, t: 0, kind: 'data', text: line.slice(2) };
  });
}

const SCENARIO = '> { "scenario": "A_small" }';
const CONNECT_1 = '> { "id": "Scav. 1", "connect": true }';
const CONNECT_2 = '> { "id": "Scav. 2", "connect": true }';
const request = (id: string, terminal = false) => `> ${encodeRequest(id, [[4]], 0, terminal)}`;

function rules(machine: typeof gamaServerMachine | typeof gamaClientMachine, ...lines: string[]) {
  return validate(machine as never, conversation(...lines)).violations.map((v) => `${v.index} ${v.rule}`);
}

describe('the machines on whole sessions', () => {
  it('find nothing wrong with an emulated session', async () => {
    const { transcript } = await playRecorded(() => 'move_ahead', { scenario: 'C', maxCycles: 30 });
    for (const machine of [gamaServerMachine, gamaClientMachine])
      expect(validate(machine as never, transcript.messages).violations).toEqual([]);
  });
});

describe('gamaServerMachine (what GAMA sends)', () => {
  it('accepts the documented order', () => {
    expect(
      rules(
        gamaServerMachine,
        SCENARIO,
        CONNECT_1,
        CONNECT_2,
        request('Scav. 1'),
        '< Scav. 1;idle',
        request('Scav. 2'),
      ),
    ).toEqual([]);
  });

  it('wants the scenario first and once, and one connect per scavenger', () => {
    expect(rules(gamaServerMachine, CONNECT_1, SCENARIO)).toEqual([
      '0 gama.scenario.first',
      '1 gama.scenario.first',
    ]);
    expect(rules(gamaServerMachine, SCENARIO, SCENARIO)).toEqual(['1 gama.scenario.repeated']);
    expect(rules(gamaServerMachine, SCENARIO, CONNECT_1, CONNECT_1)).toEqual(['2 gama.connect.duplicate']);
  });

  it('wants requests from connected scavengers, one at a time, none after terminal', () => {
    expect(rules(gamaServerMachine, SCENARIO, request('Scav. 1'))).toEqual(['1 gama.request.unconnected']);
    expect(
      rules(gamaServerMachine, SCENARIO, CONNECT_1, CONNECT_2, request('Scav. 1'), request('Scav. 2')),
    ).toEqual(['4 gama.request.overlap']);
    expect(
      rules(
        gamaServerMachine,
        SCENARIO,
        CONNECT_1,
        request('Scav. 1', true),
        '< Scav. 1;idle',
        request('Scav. 1'),
      ),
    ).toEqual(['4 gama.request.after-terminal']);
  });

  it('locates an unreadable message', () => {
    const violations = validate(gamaServerMachine, conversation(SCENARIO, '> { "id": 1 ')).violations;
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toMatch(
      /^message 1: expected a scenario, connect or request object, got not JSON: .* at column \d+/,
    );
  });
});

describe('gamaClientMachine (what the API sends)', () => {
  it('accepts answers to the waiting scavenger', () => {
    expect(rules(gamaClientMachine, SCENARIO, CONNECT_1, request('Scav. 1'), '< Scav. 1;face_left')).toEqual(
      [],
    );
  });

  it('flags replies nobody asked for, misaddressed, unreadable or with unknown actions', () => {
    expect(rules(gamaClientMachine, SCENARIO, '< Scav. 1;idle')).toEqual(['1 gama.reply.unrequested']);
    expect(rules(gamaClientMachine, request('Scav. 1'), '< Scav. 2;idle', '< Scav. 1;idle')).toEqual([
      '1 gama.reply.misaddressed',
    ]);
    expect(rules(gamaClientMachine, request('Scav. 1'), '< idle', '< Scav. 1;fly')).toEqual([
      '1 gama.reply.unreadable',
      '2 gama.reply.unknown-action',
    ]);
    const quoted = validate(gamaClientMachine, conversation(request('Scav. 1'), '< "Scav. 1;idle"'))
      .violations[0]!;
    expect(quoted.message).toContain('in JSON quotes: send the bare text');
    expect(quoted.message).toContain('(Scav. 1)');
  });

  it('flags a server that closes while a scavenger waits', () => {
    expect(rules(gamaClientMachine, request('Scav. 1'), '<close')).toEqual(['1 gama.reply.missing']);
  });
});
