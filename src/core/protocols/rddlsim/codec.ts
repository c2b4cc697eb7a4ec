/**
 * Parsing and serialising rddlsim messages (the XML inside one frame; framing is in `framing.ts`).
 * Serialisers (`serialise.ts`) write exactly what the real server and its Java client write, so a recorded
 * server message parsed and serialised again is byte-identical. Parsers read fields the way the Java code
 * does: each field is the first element of that name anywhere below the root, and its value is that
 * element's first child node, untrimmed. A message in the exact form the serialisers write takes a proved
 * fast path (`canonical-reader.ts`); any other text is parsed with saxes, which locates errors.
 */
import { ProtoplayError } from '../../errors';
import { readCanonicalClientMessage, readCanonicalServerMessage } from './canonical-reader';
import { parseJavaDouble, parseJavaLong } from './java-format';
import type { RddlsimClientMessage, RddlsimServerMessage, WireAction, WireFluent } from './messages';
import { CLIENT_ROOTS, SERVER_ROOTS } from './messages';
import { NULL_SESSION_INIT_TEXT } from './serialise';
import { descendantElements, firstChildValue, firstDescendant, parseXml, type XmlElement } from './xml';

export { NULL_SESSION_INIT_TEXT, serialiseClientMessage, serialiseServerMessage } from './serialise';

/**
 * Parses a message a server sent (without its framing byte). Throws a ProtoplayError located in `source`:
 * `rddlsim.xml.malformed`, `rddlsim.message.unknown-root` or `rddlsim.message.field`.
 */
export function parseServerMessage(text: string, source = 'message'): RddlsimServerMessage {
  if (text === NULL_SESSION_INIT_TEXT) return { type: 'session-init-null' };
  const canonical = readCanonicalServerMessage(text);
  if (canonical) return canonical;
  const { root } = parseXml(text, source);
  const fields = new FieldReader(root, source);
  switch (root.name) {
    case 'session-init':
      return {
        type: 'session-init',
        task: fields.text('task'),
        sessionId: fields.integer('session-id'),
        numRounds: fields.integer('num-rounds'),
        timeAllowed: fields.double('time-allowed'),
      };
    case 'round-init':
      return {
        type: 'round-init',
        roundNum: fields.integer('round-num'),
        roundLeft: fields.integer('round-left'),
        timeLeft: fields.double('time-left'),
      };
    case 'turn':
      return {
        type: 'turn',
        turnNum: fields.integer('turn-num'),
        timeLeft: fields.double('time-left'),
        immediateReward: fields.double('immediate-reward'),
        fluents: readTurnFluents(root, source),
      };
    case 'round-end':
      return {
        type: 'round-end',
        instanceName: fields.text('instance-name'),
        clientName: fields.text('client-name'),
        roundNum: fields.integer('round-num'),
        roundReward: fields.double('round-reward'),
        turnsUsed: fields.integer('turns-used'),
        timeLeft: fields.integer('time-left'),
        immediateReward: fields.double('immediate-reward'),
      };
    case 'session-end':
      return {
        type: 'session-end',
        instanceName: fields.text('instance-name'),
        totalReward: fields.double('total-reward'),
        roundsUsed: fields.integer('rounds-used'),
        clientName: fields.text('client-name'),
        sessionId: fields.integer('session-id'),
        timeLeft: fields.integer('time-left'),
      };
    case 'resource-notification':
      return {
        type: 'resource-notification',
        timeLeft: fields.double('time-left'),
        memoryLeft: fields.text('memory-left'),
      };
    default:
      throw unknownRoot(root.name, SERVER_ROOTS, source);
  }
}

/**
 * Parses a message a client sent (without its framing byte). Throws like `parseServerMessage`. Fields the
 * real server requires (problem and client name, each action's name and value) must be present and hold
 * text; optional ones are read when present.
 */
export function parseClientMessage(text: string, source = 'message'): RddlsimClientMessage {
  return readCanonicalClientMessage(text) ?? readClientMessage(parseXml(text, source).root, source);
}

/** Reads a client message from its already parsed root element; throws like `parseClientMessage`. */
export function readClientMessage(root: XmlElement, source = 'message'): RddlsimClientMessage {
  const fields = new FieldReader(root, source);
  switch (root.name) {
    case 'session-request': {
      const inputLanguage = fields.optionalText('input-language');
      return {
        type: 'session-request',
        problemName: fields.text('problem-name'),
        clientName: fields.text('client-name'),
        ...(inputLanguage !== undefined ? { inputLanguage } : {}),
        noHeader: firstDescendant(root, 'no-header') !== undefined,
      };
    }
    case 'round-request': {
      const executePolicy = fields.optionalText('execute-policy');
      return { type: 'round-request', ...(executePolicy !== undefined ? { executePolicy } : {}) };
    }
    case 'actions':
      return {
        type: 'actions',
        actions: descendantElements(root, 'action').map((element) => readAction(element, source)),
      };
    case 'resource-request':
      return { type: 'resource-request' };
    default:
      throw unknownRoot(root.name, CLIENT_ROOTS, source);
  }
}

/**
 * The fluents of a turn, or null for `<no-observed-fluents/>`. Both are direct children of the root in
 * practice; a marker nested deeper still counts, as it does for a DOM reader.
 */
function readTurnFluents(root: XmlElement, source: string): WireFluent[] | null {
  const fluents: WireFluent[] = [];
  for (const child of root.children) {
    if (child.kind !== 'element') continue;
    if (child.name === 'no-observed-fluents') return null;
    if (child.name === 'observed-fluent') fluents.push(readFluent(child, source));
  }
  return fluents.length === 0 && firstDescendant(root, 'no-observed-fluents') ? null : fluents;
}

/** An observed-fluent: its direct children in the usual case, any descendant otherwise. */
function readFluent(element: XmlElement, source: string): WireFluent {
  let name: XmlElement | undefined;
  let value: XmlElement | undefined;
  const args: string[] = [];
  const fields = new FieldReader(element, source);
  for (const child of element.children) {
    if (child.kind !== 'element') continue;
    if (child.name === 'fluent-arg') args.push(fields.valueOf(child));
    else if (child.name === 'fluent-name') name ??= child;
    else if (child.name === 'fluent-value') value ??= child;
  }
  return {
    name: name ? fields.valueOf(name) : fields.text('fluent-name'),
    args,
    value: value ? fields.valueOf(value) : fields.text('fluent-value'),
  };
}

function readAction(element: XmlElement, source: string): WireAction {
  const fields = new FieldReader(element, source);
  return {
    name: fields.text('action-name'),
    args: descendantElements(element, 'action-arg').map((arg) => fields.valueOf(arg)),
    value: fields.text('action-value'),
  };
}

function unknownRoot(name: string, expected: readonly string[], source: string): ProtoplayError {
  const list = expected.map((root) => `<${root}>`).join(', ');
  return new ProtoplayError('rddlsim.message.unknown-root', `expected one of ${list}, got <${name}>`, {
    source,
    line: 1,
    column: 1,
  });
}

/** Reads the fields of one element, naming the element and field in every error. */
class FieldReader {
  constructor(
    readonly element: XmlElement,
    readonly source: string,
  ) {}

  text(name: string): string {
    const element = firstDescendant(this.element, name);
    if (!element) throw this.#error(`<${this.element.name}> has no <${name}>`);
    return this.valueOf(element);
  }

  optionalText(name: string): string | undefined {
    const element = firstDescendant(this.element, name);
    return element ? this.valueOf(element) : undefined;
  }

  valueOf(element: XmlElement): string {
    const value = firstChildValue(element);
    if (typeof value !== 'string') throw this.#error(`<${element.name}> holds no text`);
    return value;
  }

  integer(name: string): number {
    const text = this.text(name);
    const value = parseJavaLong(text);
    if (value === undefined) throw this.#error(`<${name}> is not an integer: '${text}'`);
    return value;
  }

  double(name: string): number {
    const text = this.text(name);
    const value = parseJavaDouble(text);
    if (value === undefined) throw this.#error(`<${name}> is not a number: '${text}'`);
    return value;
  }

  #error(message: string): ProtoplayError {
    return new ProtoplayError('rddlsim.message.field', message, { source: this.source, line: 1, column: 1 });
  }
}
