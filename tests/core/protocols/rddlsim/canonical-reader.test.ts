/**
 * The fast path must read exactly what the saxes path reads, or step aside. The saxes path is reached by
 * giving the parsers the same message with an empty comment right inside its root: a comment is not an
 * element, so it changes no field, but the fast path refuses it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalClientTree,
  readCanonicalClientMessage,
  readCanonicalServerMessage,
} from '../../../../src/core/protocols/rddlsim/canonical-reader';
import {
  parseClientMessage,
  parseServerMessage,
  serialiseClientMessage,
  serialiseServerMessage,
} from '../../../../src/core/protocols/rddlsim/codec';
import type {
  RddlsimClientMessage,
  RddlsimServerMessage,
} from '../../../../src/core/protocols/rddlsim/messages';
import { parseXml } from '../../../../src/core/protocols/rddlsim/xml';
import { allRecordings } from './recordings';

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The same message with `<!---->` as the root's first child: read by saxes only. */
function withComment(text: string): string {
  const open = text.indexOf('<', text.startsWith(HEADER) ? HEADER.length : 0);
  const close = text.indexOf('>', open);
  if (text[close - 1] === '/') {
    const name = text.slice(open + 1, close - 1);
    return `${text.slice(0, close - 1)}><!----></${name}>${text.slice(close + 1)}`;
  }
  return `${text.slice(0, close + 1)}<!---->${text.slice(close + 1)}`;
}

/** What the saxes path makes of a text: the message, or the error's code and located words. */
function bySaxes<M>(parse: (text: string) => M, text: string): { message: M } | { error: string } {
  try {
    return { message: parse(withComment(text)) };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Field text: mostly plain, sometimes with what must be escaped or cannot be written, sometimes empty. */
const fieldText = fc.oneof(
  fc.stringMatching(/^[a-z$@][a-z0-9_-]{0,8}$/),
  fc.string({ unit: fc.constantFrom('a', ' ', '&', '<', '>', '"', '\t', '\n', '\r', 'é', '\u0001', ']') }),
);
const javaInt = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const javaLong = fc.maxSafeInteger();
const javaDouble = fc.oneof(
  fc.double(),
  fc.integer().map((x) => x / 8),
);

const wireList = (name: string) =>
  fc
    .array(fc.record({ name: fieldText, args: fc.array(fieldText, { maxLength: 3 }), value: fieldText }), {
      maxLength: 5,
    })
    .map((items) => items.map((item) => ({ ...item, name: item.name || name })));

const serverMessage: fc.Arbitrary<RddlsimServerMessage> = fc.oneof(
  fc.record({
    type: fc.constant('turn' as const),
    turnNum: javaInt,
    timeLeft: javaDouble,
    immediateReward: javaDouble,
    fluents: fc.option(wireList('f'), { nil: null }),
  }),
  fc.record({
    type: fc.constant('session-init' as const),
    task: fieldText,
    sessionId: javaInt,
    numRounds: javaInt,
    timeAllowed: javaDouble,
  }),
  fc.record({
    type: fc.constant('round-init' as const),
    roundNum: javaInt,
    roundLeft: javaInt,
    timeLeft: javaDouble,
  }),
  fc.record({
    type: fc.constant('round-end' as const),
    instanceName: fieldText,
    clientName: fieldText,
    roundNum: javaInt,
    roundReward: javaDouble,
    turnsUsed: javaInt,
    timeLeft: javaLong,
    immediateReward: javaDouble,
  }),
  fc.record({
    type: fc.constant('session-end' as const),
    instanceName: fieldText,
    totalReward: javaDouble,
    roundsUsed: javaInt,
    clientName: fieldText,
    sessionId: javaInt,
    timeLeft: javaLong,
  }),
  fc.record({
    type: fc.constant('resource-notification' as const),
    timeLeft: javaDouble,
    memoryLeft: fieldText,
  }),
);

const clientMessage: fc.Arbitrary<RddlsimClientMessage> = fc.oneof(
  fc.record({ type: fc.constant('actions' as const), actions: wireList('a') }),
  fc.record(
    { type: fc.constant('round-request' as const), executePolicy: fieldText },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('session-request' as const),
      problemName: fieldText,
      clientName: fieldText,
      inputLanguage: fieldText,
      noHeader: fc.boolean(),
    },
    { requiredKeys: ['type', 'problemName', 'clientName', 'noHeader'] },
  ),
  fc.constant({ type: 'resource-request' as const }),
);

/** A text changed at one place: a character dropped, doubled or replaced. */
const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('drop', 'double', 'space', 'digit', 'quote'),
});

function mutate(text: string, { at, kind }: { at: number; kind: string }): string {
  const i = at % Math.max(1, text.length);
  const replacement = { drop: '', double: text.slice(i, i + 2), space: ' ', digit: '7', quote: "'" }[kind]!;
  return text.slice(0, i) + replacement + text.slice(i + 1);
}

/** Whether every text field of a message can be written and read back (not empty, nothing escaped). */
function plain(message: RddlsimServerMessage | RddlsimClientMessage): boolean {
  const texts: string[] = [];
  for (const [key, value] of Object.entries(message)) {
    if (key === 'type') continue;
    if (typeof value === 'string') texts.push(value);
    if (Array.isArray(value))
      for (const item of value as { name: string; args: string[]; value: string }[])
        texts.push(item.name, ...item.args, item.value);
  }
  return texts.every((text) => /^[a-z0-9$@_-]+$/.test(text));
}

describe('readCanonicalServerMessage', () => {
  it('reads what saxes reads, for any message in either framing (property)', () => {
    fc.assert(
      fc.property(serverMessage, fc.boolean(), (message, header) => {
        const text = serialiseServerMessage(message, { header });
        const fast = readCanonicalServerMessage(text);
        const saxes = bySaxes(parseServerMessage, text);
        if (fast !== undefined) expect(saxes).toEqual({ message: fast });
        // A message with plain fields always takes the fast path.
        if (plain(message)) expect(fast).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a changed message only when saxes reads it the same way (property)', () => {
    fc.assert(
      fc.property(serverMessage, fc.boolean(), mutation, (message, header, change) => {
        const text = mutate(serialiseServerMessage(message, { header }), change);
        const fast = readCanonicalServerMessage(text);
        if (fast !== undefined) expect(bySaxes(parseServerMessage, text)).toEqual({ message: fast });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads every message the real server sent in the recordings, except those with entities', () => {
    let read = 0;
    for (const [, transcript] of allRecordings()) {
      for (const message of transcript.messages) {
        if (message.kind !== 'data' || message.dir !== 's2c' || message.text === 'null') continue;
        const fast = readCanonicalServerMessage(message.text!);
        if (message.text!.includes('&')) expect(fast, message.text).toBeUndefined();
        else expect(fast, message.text).toEqual(parseServerMessage(withComment(message.text!)));
        read++;
      }
    }
    expect(read).toBeGreaterThan(600);
  });

  it('steps aside for other spellings of the same message', () => {
    const turn = `${HEADER}<turn><turn-num>1</turn-num><time-left>5.0</time-left><immediate-reward>0.0</immediate-reward><no-observed-fluents/></turn>`;
    expect(readCanonicalServerMessage(turn)).toBeDefined();
    for (const other of [
      turn.replace('5.0', '5'),
      turn.replace('<turn>', '<turn >'),
      turn.replace('</turn>', '</turn>\n'),
      turn.replace('<no-observed-fluents/>', '<no-observed-fluents></no-observed-fluents>'),
      turn.replace('<turn-num>1', '<turn-num>+1'),
    ]) {
      expect(readCanonicalServerMessage(other), other).toBeUndefined();
      expect(parseServerMessage(other).type).toBe('turn');
    }
  });

  it('leaves empty fields to the saxes path, which names them', () => {
    const text = `${HEADER}<resource-notification><time-left>1.0</time-left><memory-left></memory-left></resource-notification>`;
    expect(readCanonicalServerMessage(text)).toBeUndefined();
    expect(() => parseServerMessage(text)).toThrow('<memory-left> holds no text');
  });
});

describe('readCanonicalClientMessage', () => {
  it('reads what saxes reads, and builds the tree saxes builds (property)', () => {
    fc.assert(
      fc.property(clientMessage, fc.option(mutation, { nil: undefined }), (message, change) => {
        const written = serialiseClientMessage(message);
        const text = change ? mutate(written, change) : written;
        const fast = readCanonicalClientMessage(text);
        if (fast !== undefined) {
          expect(bySaxes(parseClientMessage, text)).toEqual({ message: fast });
          expect(canonicalClientTree(fast)).toEqual(parseXml(text).root);
        }
        if (!change && plain(message)) expect(fast).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("reads every message rddlsim's Java client sent in the recordings", () => {
    let read = 0;
    for (const [name, transcript] of allRecordings()) {
      if (name.startsWith('edge-cases/')) continue;
      for (const message of transcript.messages) {
        if (message.kind !== 'data' || message.dir !== 'c2s') continue;
        expect(readCanonicalClientMessage(message.text!), message.text).toEqual(
          parseClientMessage(withComment(message.text!)),
        );
        read++;
      }
    }
    expect(read).toBeGreaterThan(300);
  });

  it('needs the declaration the Java client always writes', () => {
    expect(readCanonicalClientMessage('<actions/>')).toBeUndefined();
    expect(readCanonicalClientMessage(`${HEADER}<actions/>`)).toEqual({ type: 'actions', actions: [] });
  });
});
