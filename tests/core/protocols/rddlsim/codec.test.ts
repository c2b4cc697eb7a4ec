import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import {
  parseClientMessage,
  parseServerMessage,
  serialiseClientMessage,
  serialiseServerMessage,
} from '../../../../src/core/protocols/rddlsim/codec';
import type { RddlsimServerMessage } from '../../../../src/core/protocols/rddlsim/messages';
import { EDGE_CASES, MAIN_SESSIONS, RDDLSIM_RECORDINGS, allRecordings } from './recordings';

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Client messages the recordings' README describes as malformed on purpose (recording, message index). */
const MALFORMED_ON_PURPOSE = new Set([
  'edge-cases/leading_ws#2',
  'edge-cases/leading_ws#7',
  'edge-cases/malformed_round_request#2',
  'edge-cases/malformed_session_request#0',
]);

describe('codec conformance with the recorded sessions', () => {
  const recordings = allRecordings();

  it('knows every edge-case recording there is', () => {
    const files = readdirSync(resolve(RDDLSIM_RECORDINGS, 'edge-cases'))
      .filter((file) => file.endsWith('.transcript'))
      .map((file) => file.replace(/\.transcript$/, ''))
      .sort();
    expect(files).toEqual([...EDGE_CASES].sort());
  });

  it.each(recordings)('parses every message of %s', (name, transcript) => {
    const failures: string[] = [];
    let parsed = 0;
    for (const message of transcript.messages) {
      if (message.kind !== 'data') continue;
      try {
        if (message.dir === 's2c') parseServerMessage(message.text!);
        else parseClientMessage(message.text!);
        parsed++;
      } catch (error) {
        expect(error).toBeInstanceOf(ProtoplayError);
        failures.push(`${name}#${message.index}`);
      }
    }
    expect(parsed + failures.length).toBe(transcript.messages.filter((m) => m.kind === 'data').length);
    expect(failures).toEqual([...MALFORMED_ON_PURPOSE].filter((key) => key.startsWith(`${name}#`)));
  });

  it.each(recordings)('re-serialises the server messages of %s byte for byte', (_name, transcript) => {
    const serverMessages = transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');
    for (const message of serverMessages) {
      const parsed = parseServerMessage(message.text!);
      expect(serialiseServerMessage(parsed, { header: message.framing !== 'none' })).toBe(message.text);
    }
  });

  it('has server messages to compare in the recordings', () => {
    const count = recordings
      .flatMap(([, t]) => t.messages)
      .filter((m) => m.kind === 'data' && m.dir === 's2c').length;
    expect(count).toBeGreaterThan(600);
  });

  it.each(MAIN_SESSIONS)('re-serialises the Java client messages of %s byte for byte', (name) => {
    const transcript = allRecordings().find(([n]) => n === name)![1];
    for (const message of transcript.messages.filter((m) => m.kind === 'data' && m.dir === 'c2s')) {
      expect(serialiseClientMessage(parseClientMessage(message.text!))).toBe(message.text);
    }
  });
});

describe('server messages', () => {
  const samples: [string, RddlsimServerMessage][] = [
    [
      '<session-init><task>AAAA</task><session-id>3</session-id><num-rounds>30</num-rounds><time-allowed>2.0E7</time-allowed></session-init>',
      { type: 'session-init', task: 'AAAA', sessionId: 3, numRounds: 30, timeAllowed: 2e7 },
    ],
    [
      '<round-init><round-num>1</round-num><round-left>29</round-left><time-left>1.9999915E7</time-left></round-init>',
      { type: 'round-init', roundNum: 1, roundLeft: 29, timeLeft: 19999915 },
    ],
    [
      '<turn><turn-num>1</turn-num><time-left>2942.0</time-left><immediate-reward>0.0</immediate-reward><no-observed-fluents/></turn>',
      { type: 'turn', turnNum: 1, timeLeft: 2942, immediateReward: 0, fluents: null },
    ],
    [
      '<turn><turn-num>2</turn-num><time-left>10.0</time-left><immediate-reward>-157.25</immediate-reward>' +
        '<observed-fluent><fluent-name>at</fluent-name><fluent-arg>e0</fluent-arg><fluent-arg>@f1</fluent-arg><fluent-value>1.0E-4</fluent-value></observed-fluent></turn>',
      {
        type: 'turn',
        turnNum: 2,
        timeLeft: 10,
        immediateReward: -157.25,
        fluents: [{ name: 'at', args: ['e0', '@f1'], value: '1.0E-4' }],
      },
    ],
    [
      '<round-end><instance-name>i</instance-name><client-name>c</client-name><round-num>-1</round-num><round-reward>373.6000000000003</round-reward><turns-used>40</turns-used><time-left>-1107</time-left><immediate-reward>4.0</immediate-reward></round-end>',
      {
        type: 'round-end',
        instanceName: 'i',
        clientName: 'c',
        roundNum: -1,
        roundReward: 373.6000000000003,
        turnsUsed: 40,
        timeLeft: -1107,
        immediateReward: 4,
      },
    ],
    [
      '<session-end><instance-name>i</instance-name><total-reward>723.25</total-reward><rounds-used>3</rounds-used><client-name>c</client-name><session-id>1</session-id><time-left>19999811</time-left></session-end>',
      {
        type: 'session-end',
        instanceName: 'i',
        totalReward: 723.25,
        roundsUsed: 3,
        clientName: 'c',
        sessionId: 1,
        timeLeft: 19999811,
      },
    ],
    [
      '<resource-notification><time-left>1079954.0</time-left><memory-left>enough</memory-left></resource-notification>',
      { type: 'resource-notification', timeLeft: 1079954, memoryLeft: 'enough' },
    ],
  ];

  it.each(samples)('parses and writes %s', (body, message) => {
    expect(parseServerMessage(HEADER + body)).toEqual(message);
    expect(parseServerMessage(body)).toEqual(message);
    expect(serialiseServerMessage(message)).toBe(HEADER + body);
    expect(serialiseServerMessage(message, { header: false })).toBe(body);
  });

  it('reads and writes the literal null session-init, which has no header in any mode', () => {
    expect(parseServerMessage('null')).toEqual({ type: 'session-init-null' });
    expect(serialiseServerMessage({ type: 'session-init-null' })).toBe('null');
  });

  it('escapes text like XMLSerializer through a US-ASCII writer', () => {
    const end: RddlsimServerMessage = {
      type: 'session-end',
      instanceName: 'i',
      totalReward: 0,
      roundsUsed: 1,
      clientName: 'a&b<c>"q" é\r\t😀',
      sessionId: 1,
      timeLeft: 5,
    };
    const text = serialiseServerMessage(end, { header: false });
    expect(text).toContain('<client-name>a&amp;b&lt;c&gt;"q" ?&#xd;\t?</client-name>');
    expect(parseServerMessage(text)).toMatchObject({ clientName: 'a&b<c>"q" ?\r\t?' });
  });

  it('writes ASCII only, whatever the text, so each character is one byte on the wire (property)', () => {
    const text = fc.string({ unit: 'grapheme' });
    fc.assert(
      fc.property(text, text, fc.array(fc.tuple(text, text)), (instanceName, clientName, fluents) => {
        const messages: RddlsimServerMessage[] = [
          {
            type: 'round-end',
            instanceName,
            clientName,
            roundNum: 0,
            roundReward: 1,
            turnsUsed: 1,
            timeLeft: 1,
            immediateReward: 1,
          },
          {
            type: 'turn',
            turnNum: 1,
            timeLeft: 1,
            immediateReward: 0,
            fluents: fluents.map(([name, value]) => ({ name, args: [clientName], value })),
          },
        ];
        for (const message of messages) {
          const written = serialiseServerMessage(message);
          expect([...written].filter((char) => char.charCodeAt(0) > 0x7f)).toEqual([]);
        }
      }),
    );
  });

  it('names the missing or unreadable field', () => {
    expect(() =>
      parseServerMessage('<round-init><round-num>1</round-num><time-left>1.0</time-left></round-init>'),
    ).toThrow('<round-init> has no <round-left>');
    expect(() =>
      parseServerMessage(
        '<round-init><round-num>x</round-num><round-left>1</round-left><time-left>1.0</time-left></round-init>',
      ),
    ).toThrow("<round-num> is not an integer: 'x'");
    expect(() =>
      parseServerMessage(
        '<resource-notification><time-left/><memory-left>m</memory-left></resource-notification>',
      ),
    ).toThrow('<time-left> holds no text');
  });

  it('refuses client messages with the list of what a server sends', () => {
    expect(() => parseServerMessage('<actions/>')).toThrow(/expected one of <session-init>, .*got <actions>/);
  });

  it('locates malformed XML by line and column in the named message', () => {
    try {
      parseServerMessage(`${HEADER}<turn><turn-num>1</turn-num>`, 'message 7');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProtoplayError);
      const located = error as ProtoplayError;
      expect(located.code).toBe('rddlsim.xml.malformed');
      expect(located.location).toMatchObject({ source: 'message 7', line: 2 });
      expect(located.format()).toMatch(/^message 7:2:\d+: malformed XML: unclosed tag: turn$/);
    }
  });
});

describe('client messages', () => {
  it('reads fields anywhere below the root, untrimmed, like the real server', () => {
    const message = parseClientMessage(
      '<session-request><x><client-name> me </client-name></x><problem-name>p</problem-name><no-header/><input-language>rddl</input-language></session-request>',
    );
    expect(message).toEqual({
      type: 'session-request',
      problemName: 'p',
      clientName: ' me ',
      inputLanguage: 'rddl',
      noHeader: true,
    });
  });

  it('reads PROST-style round-requests with whitespace around execute-policy', () => {
    expect(
      parseClientMessage('<round-request> <execute-policy>yes</execute-policy> </round-request>'),
    ).toEqual({
      type: 'round-request',
      executePolicy: 'yes',
    });
  });

  it('reads every action with its arguments in order; an empty actions element is a noop', () => {
    expect(parseClientMessage('<actions></actions>')).toEqual({ type: 'actions', actions: [] });
    expect(
      parseClientMessage(
        '<actions><action><action-name>move</action-name><action-arg>$e0</action-arg><action-arg>@up</action-arg><action-value>1e3</action-value></action></actions>',
      ),
    ).toEqual({ type: 'actions', actions: [{ name: 'move', args: ['$e0', '@up'], value: '1e3' }] });
  });

  it('writes what rddlsim’s Java client writes, plus the optional IPC 2018 elements', () => {
    expect(serialiseClientMessage({ type: 'round-request' })).toBe(`${HEADER}<round-request/>`);
    expect(serialiseClientMessage({ type: 'actions', actions: [] })).toBe(`${HEADER}<actions/>`);
    expect(serialiseClientMessage({ type: 'resource-request' })).toBe(`${HEADER}<resource-request/>`);
    expect(serialiseClientMessage({ type: 'round-request', executePolicy: 'no' })).toBe(
      `${HEADER}<round-request><execute-policy>no</execute-policy></round-request>`,
    );
    expect(
      serialiseClientMessage({
        type: 'session-request',
        problemName: 'p',
        clientName: 'c',
        inputLanguage: 'rddl',
        noHeader: true,
      }),
    ).toBe(
      `${HEADER}<session-request><problem-name>p</problem-name><client-name>c</client-name><input-language>rddl</input-language><no-header/></session-request>`,
    );
  });

  it('requires the fields the real server cannot do without', () => {
    expect(() =>
      parseClientMessage('<session-request><problem-name>p</problem-name></session-request>'),
    ).toThrow('<session-request> has no <client-name>');
    expect(() =>
      parseClientMessage('<actions><action><action-name>a</action-name></action></actions>'),
    ).toThrow('<action> has no <action-value>');
  });
});
