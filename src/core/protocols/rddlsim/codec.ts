/**
 * Parsing and serialising rddlsim messages (the XML inside one frame; framing is in `framing.ts`).
 * Serialisers write exactly what the real server and its Java client write, so a recorded server message
 * parsed and serialised again is byte-identical. Parsers read fields the way the Java code does: each field
 * is the first element of that name anywhere below the root, and its value is that element's first child
 * node, untrimmed.
 */
import { ProtoplayError } from '../../errors';
import { javaDoubleToString, javaIntegerToString, parseJavaDouble, parseJavaInt } from './java-format';
import type { RddlsimClientMessage, RddlsimServerMessage, WireAction, WireFluent } from './messages';
import { CLIENT_ROOTS, SERVER_ROOTS } from './messages';
import { descendantElements, firstChildValue, firstDescendant, parseXml, type XmlElement } from './xml';
import { XML_HEADER, textElement } from './xml-text';

/** The text the server sends instead of a session-init when it cannot read the task files. */
export const NULL_SESSION_INIT_TEXT = 'null';

/**
 * Parses a message a server sent (without its framing byte). Throws a ProtoplayError located in `source`:
 * `rddlsim.xml.malformed`, `rddlsim.message.unknown-root` or `rddlsim.message.field`.
 */
export function parseServerMessage(text: string, source = 'message'): RddlsimServerMessage {
  if (text === NULL_SESSION_INIT_TEXT) return { type: 'session-init-null' };
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
  return readClientMessage(parseXml(text, source).root, source);
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
 * Serialises a server message as the real server does. With `header: false` (`<no-header/>` mode) the
 * declaration and its newline are left out, as the server's `substring(39)` does.
 */
export function serialiseServerMessage(message: RddlsimServerMessage, { header = true } = {}): string {
  const body = serverBody(message);
  if (message.type === 'session-init-null') return body;
  return header ? XML_HEADER + body : body;
}

/** Serialises a client message as rddlsim's Java client does (plus the optional IPC 2018 elements). */
export function serialiseClientMessage(message: RddlsimClientMessage): string {
  return XML_HEADER + clientBody(message);
}

function serverBody(message: RddlsimServerMessage): string {
  switch (message.type) {
    case 'session-init':
      return (
        '<session-init>' +
        textElement('task', message.task) +
        textElement('session-id', javaIntegerToString(message.sessionId)) +
        textElement('num-rounds', javaIntegerToString(message.numRounds)) +
        textElement('time-allowed', javaDoubleToString(message.timeAllowed)) +
        '</session-init>'
      );
    case 'session-init-null':
      return NULL_SESSION_INIT_TEXT;
    case 'round-init':
      return (
        '<round-init>' +
        textElement('round-num', javaIntegerToString(message.roundNum)) +
        textElement('round-left', javaIntegerToString(message.roundLeft)) +
        textElement('time-left', javaDoubleToString(message.timeLeft)) +
        '</round-init>'
      );
    case 'turn':
      return (
        '<turn>' +
        textElement('turn-num', javaIntegerToString(message.turnNum)) +
        textElement('time-left', javaDoubleToString(message.timeLeft)) +
        textElement('immediate-reward', javaDoubleToString(message.immediateReward)) +
        (message.fluents === null ? '<no-observed-fluents/>' : message.fluents.map(fluentElement).join('')) +
        '</turn>'
      );
    case 'round-end':
      return (
        '<round-end>' +
        textElement('instance-name', message.instanceName) +
        textElement('client-name', message.clientName) +
        textElement('round-num', javaIntegerToString(message.roundNum)) +
        textElement('round-reward', javaDoubleToString(message.roundReward)) +
        textElement('turns-used', javaIntegerToString(message.turnsUsed)) +
        textElement('time-left', javaIntegerToString(message.timeLeft)) +
        textElement('immediate-reward', javaDoubleToString(message.immediateReward)) +
        '</round-end>'
      );
    case 'session-end':
      return (
        '<session-end>' +
        textElement('instance-name', message.instanceName) +
        textElement('total-reward', javaDoubleToString(message.totalReward)) +
        textElement('rounds-used', javaIntegerToString(message.roundsUsed)) +
        textElement('client-name', message.clientName) +
        textElement('session-id', javaIntegerToString(message.sessionId)) +
        textElement('time-left', javaIntegerToString(message.timeLeft)) +
        '</session-end>'
      );
    case 'resource-notification':
      return (
        '<resource-notification>' +
        textElement('time-left', javaDoubleToString(message.timeLeft)) +
        textElement('memory-left', message.memoryLeft) +
        '</resource-notification>'
      );
  }
}

function clientBody(message: RddlsimClientMessage): string {
  switch (message.type) {
    case 'session-request':
      return (
        '<session-request>' +
        textElement('problem-name', message.problemName) +
        textElement('client-name', message.clientName) +
        (message.inputLanguage !== undefined ? textElement('input-language', message.inputLanguage) : '') +
        (message.noHeader ? '<no-header/>' : '') +
        '</session-request>'
      );
    case 'round-request':
      return message.executePolicy === undefined
        ? '<round-request/>'
        : `<round-request>${textElement('execute-policy', message.executePolicy)}</round-request>`;
    case 'actions':
      return message.actions.length === 0
        ? '<actions/>'
        : `<actions>${message.actions.map(actionElement).join('')}</actions>`;
    case 'resource-request':
      return '<resource-request/>';
  }
}

function fluentElement(fluent: WireFluent): string {
  let xml = '<observed-fluent>' + textElement('fluent-name', fluent.name);
  for (const arg of fluent.args) xml += textElement('fluent-arg', arg);
  return xml + textElement('fluent-value', fluent.value) + '</observed-fluent>';
}

function actionElement(action: WireAction): string {
  let xml = '<action>' + textElement('action-name', action.name);
  for (const arg of action.args) xml += textElement('action-arg', arg);
  return xml + textElement('action-value', action.value) + '</action>';
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
    if (!/^[+-]?[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw this.#error(`<${name}> is not an integer: '${text}'`);
    return parseJavaInt(text) ?? Number(text);
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
