/**
 * The fast path of message parsing. rddlsim's server, its Java client and our serialisers all write one
 * exact form: declaration, root on one line, fields in a fixed order, no whitespace, attributes, comments
 * or entities. A text in that form is read here by plain string scanning, and the reading is then proved by
 * writing it back with our serialiser: it is returned only when that gives the input byte for byte.
 *
 * Why that proof is enough: every text the serialisers write is well-formed XML in which saxes reads each
 * field back unchanged, provided no field is empty (an empty element has no text node, which the saxes path
 * reports as a missing value). So a proved reading is exactly what the saxes path returns, and anything else
 * (other spacing, entities, unusual number spellings, malformed input) comes back undefined, for the saxes
 * path to read or to reject with a located error.
 */
import { parseJavaDouble, parseJavaLong } from './java-format';
import type {
  RddlsimClientMessage,
  RddlsimServerMessage,
  WireAction,
  WireFluent,
  SessionRequest,
} from './messages';
import { serialiseClientMessage, serialiseServerMessage } from './serialise';
import type { XmlElement } from './xml';
import { XML_HEADER } from './xml-text';

/** A server message in canonical form, or undefined when the text is in any other form. */
export function readCanonicalServerMessage(text: string): RddlsimServerMessage | undefined {
  const header = text.startsWith(XML_HEADER);
  const scanner = new CanonicalScanner(text, header ? XML_HEADER.length : 0);
  let message: RddlsimServerMessage | undefined;
  try {
    message = readServerRoot(scanner);
  } catch (error) {
    if (error !== NOT_CANONICAL) throw error;
    return undefined;
  }
  return serialiseServerMessage(message, { header }) === text ? message : undefined;
}

/** A client message in canonical form (with its declaration), or undefined. */
export function readCanonicalClientMessage(text: string): RddlsimClientMessage | undefined {
  if (!text.startsWith(XML_HEADER)) return undefined;
  const scanner = new CanonicalScanner(text, XML_HEADER.length);
  let message: RddlsimClientMessage | undefined;
  try {
    message = readClientRoot(scanner);
  } catch (error) {
    if (error !== NOT_CANONICAL) throw error;
    return undefined;
  }
  return serialiseClientMessage(message) === text ? message : undefined;
}

/**
 * The element tree saxes builds from the canonical text of `message`, for readers that follow the real
 * server over the tree (`server-reading.ts`): every field an element holding one text node.
 */
export function canonicalClientTree(message: RddlsimClientMessage): XmlElement {
  switch (message.type) {
    case 'session-request':
      return element('session-request', sessionRequestFields(message));
    case 'round-request':
      return element(
        'round-request',
        message.executePolicy === undefined ? [] : [textField('execute-policy', message.executePolicy)],
      );
    case 'actions':
      return element('actions', message.actions.map(actionTree));
    case 'resource-request':
      return element('resource-request', []);
  }
}

function sessionRequestFields(message: SessionRequest): XmlElement[] {
  const fields = [
    textField('problem-name', message.problemName),
    textField('client-name', message.clientName),
  ];
  if (message.inputLanguage !== undefined) fields.push(textField('input-language', message.inputLanguage));
  if (message.noHeader) fields.push(element('no-header', []));
  return fields;
}

function actionTree(action: WireAction): XmlElement {
  return element('action', [
    textField('action-name', action.name),
    ...action.args.map((arg) => textField('action-arg', arg)),
    textField('action-value', action.value),
  ]);
}

function element(name: string, children: XmlElement[]): XmlElement {
  return { kind: 'element', name, attributes: {}, children };
}

function textField(name: string, value: string): XmlElement {
  return { kind: 'element', name, attributes: {}, children: [{ kind: 'text', value }] };
}

/** Thrown (never escapes this module) where the text leaves the canonical form. */
const NOT_CANONICAL = Symbol('not canonical');

/** An element holding text, by the lengths of its two tags (the proof checks the tags themselves). */
interface TextTag {
  open: number;
  close: number;
}

function tag(name: string): TextTag {
  return { open: name.length + 2, close: name.length + 3 };
}

const TASK = tag('task');
const SESSION_ID = tag('session-id');
const NUM_ROUNDS = tag('num-rounds');
const TIME_ALLOWED = tag('time-allowed');
const ROUND_NUM = tag('round-num');
const ROUND_LEFT = tag('round-left');
const TIME_LEFT = tag('time-left');
const TURN_NUM = tag('turn-num');
const IMMEDIATE_REWARD = tag('immediate-reward');
const FLUENT_NAME = tag('fluent-name');
const FLUENT_ARG = tag('fluent-arg');
const FLUENT_VALUE = tag('fluent-value');
const INSTANCE_NAME = tag('instance-name');
const CLIENT_NAME = tag('client-name');
const ROUND_REWARD = tag('round-reward');
const TURNS_USED = tag('turns-used');
const TOTAL_REWARD = tag('total-reward');
const ROUNDS_USED = tag('rounds-used');
const MEMORY_LEFT = tag('memory-left');
const PROBLEM_NAME = tag('problem-name');
const INPUT_LANGUAGE = tag('input-language');
const EXECUTE_POLICY = tag('execute-policy');
const ACTION_NAME = tag('action-name');
const ACTION_ARG = tag('action-arg');
const ACTION_VALUE = tag('action-value');

const OBSERVED_FLUENT = '<observed-fluent>';
const OBSERVED_FLUENT_END = '</observed-fluent>';
const ACTION = '<action>';
const ACTION_END = '</action>';
/** `<fluent-arg>` and `<action-arg>` differ from `<fluent-value>` and `<action-value>` at this offset. */
const ARG_OR_VALUE_OFFSET = 8;
const LETTER_A = 0x61;
/** The letter after `<` of `<observed-fluent>` and `<action>` (not `/` as in the closing tag of the root). */
const LETTER_O = 0x6f;
/** The letter after `<` of `<input-language>`, the optional field of a session-request. */
const LETTER_I = 0x69;

/**
 * Finds the values of a canonical message, in order. It checks only what it must to find them (the root's
 * tag, and one letter where an element may repeat); the proof by serialising checks everything else, so a
 * text in another form at worst yields a reading the proof then refuses.
 */
class CanonicalScanner {
  constructor(
    readonly text: string,
    public pos: number,
  ) {}

  /** Steps over `literal` when the text continues with it. */
  accept(literal: string): boolean {
    if (!this.text.startsWith(literal, this.pos)) return false;
    this.pos += literal.length;
    return true;
  }

  /** Whether the text continues with `<` and then `letter`. */
  startsElement(letter: number): boolean {
    return this.text.charCodeAt(this.pos + 1) === letter;
  }

  /** Whether the element that starts here is an argument (rather than the value that follows them). */
  startsArgument(): boolean {
    return this.text.charCodeAt(this.pos + ARG_OR_VALUE_OFFSET) === LETTER_A;
  }

  /** The text of the field that comes next; it must not be empty. */
  field(field: TextTag): string {
    const start = this.pos + field.open;
    const end = this.text.indexOf('<', start);
    if (end <= start) throw NOT_CANONICAL;
    this.pos = end + field.close;
    return this.text.slice(start, end);
  }

  /** An integer field (a Java int or long). */
  integer(field: TextTag): number {
    const value = parseJavaLong(this.field(field));
    if (value === undefined) throw NOT_CANONICAL;
    return value;
  }

  /** A double field. */
  double(field: TextTag): number {
    const value = parseJavaDouble(this.field(field));
    if (value === undefined) throw NOT_CANONICAL;
    return value;
  }
}

function readServerRoot(scanner: CanonicalScanner): RddlsimServerMessage {
  if (scanner.accept('<turn>')) {
    const turnNum = scanner.integer(TURN_NUM);
    const timeLeft = scanner.double(TIME_LEFT);
    const immediateReward = scanner.double(IMMEDIATE_REWARD);
    const fluents = scanner.accept('<no-observed-fluents/>') ? null : readFluents(scanner);
    return { type: 'turn', turnNum, timeLeft, immediateReward, fluents };
  }
  if (scanner.accept('<round-init>')) {
    return {
      type: 'round-init',
      roundNum: scanner.integer(ROUND_NUM),
      roundLeft: scanner.integer(ROUND_LEFT),
      timeLeft: scanner.double(TIME_LEFT),
    };
  }
  if (scanner.accept('<round-end>')) {
    return {
      type: 'round-end',
      instanceName: scanner.field(INSTANCE_NAME),
      clientName: scanner.field(CLIENT_NAME),
      roundNum: scanner.integer(ROUND_NUM),
      roundReward: scanner.double(ROUND_REWARD),
      turnsUsed: scanner.integer(TURNS_USED),
      timeLeft: scanner.integer(TIME_LEFT),
      immediateReward: scanner.double(IMMEDIATE_REWARD),
    };
  }
  if (scanner.accept('<session-init>')) {
    return {
      type: 'session-init',
      task: scanner.field(TASK),
      sessionId: scanner.integer(SESSION_ID),
      numRounds: scanner.integer(NUM_ROUNDS),
      timeAllowed: scanner.double(TIME_ALLOWED),
    };
  }
  if (scanner.accept('<session-end>')) {
    return {
      type: 'session-end',
      instanceName: scanner.field(INSTANCE_NAME),
      totalReward: scanner.double(TOTAL_REWARD),
      roundsUsed: scanner.integer(ROUNDS_USED),
      clientName: scanner.field(CLIENT_NAME),
      sessionId: scanner.integer(SESSION_ID),
      timeLeft: scanner.integer(TIME_LEFT),
    };
  }
  if (scanner.accept('<resource-notification>')) {
    return {
      type: 'resource-notification',
      timeLeft: scanner.double(TIME_LEFT),
      memoryLeft: scanner.field(MEMORY_LEFT),
    };
  }
  throw NOT_CANONICAL;
}

function readFluents(scanner: CanonicalScanner): WireFluent[] {
  const fluents: WireFluent[] = [];
  while (scanner.startsElement(LETTER_O)) {
    scanner.pos += OBSERVED_FLUENT.length;
    const name = scanner.field(FLUENT_NAME);
    const args: string[] = [];
    while (scanner.startsArgument()) args.push(scanner.field(FLUENT_ARG));
    fluents.push({ name, args, value: scanner.field(FLUENT_VALUE) });
    scanner.pos += OBSERVED_FLUENT_END.length;
  }
  return fluents;
}

function readClientRoot(scanner: CanonicalScanner): RddlsimClientMessage {
  if (scanner.accept('<actions/>')) return { type: 'actions', actions: [] };
  if (scanner.accept('<actions>')) {
    const actions: WireAction[] = [];
    while (scanner.startsElement(LETTER_A)) {
      scanner.pos += ACTION.length;
      const name = scanner.field(ACTION_NAME);
      const args: string[] = [];
      while (scanner.startsArgument()) args.push(scanner.field(ACTION_ARG));
      actions.push({ name, args, value: scanner.field(ACTION_VALUE) });
      scanner.pos += ACTION_END.length;
    }
    return { type: 'actions', actions };
  }
  if (scanner.accept('<round-request/>')) return { type: 'round-request' };
  if (scanner.accept('<round-request>'))
    return { type: 'round-request', executePolicy: scanner.field(EXECUTE_POLICY) };
  if (scanner.accept('<session-request>')) {
    const problemName = scanner.field(PROBLEM_NAME);
    const clientName = scanner.field(CLIENT_NAME);
    const inputLanguage = scanner.startsElement(LETTER_I) ? scanner.field(INPUT_LANGUAGE) : undefined;
    return {
      type: 'session-request',
      problemName,
      clientName,
      ...(inputLanguage !== undefined ? { inputLanguage } : {}),
      noHeader: scanner.accept('<no-header/>'),
    };
  }
  if (scanner.accept('<resource-request/>')) return { type: 'resource-request' };
  throw NOT_CANONICAL;
}
