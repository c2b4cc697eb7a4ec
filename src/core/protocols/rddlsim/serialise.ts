/**
 * Writing rddlsim messages exactly as the real server and its Java client write them, so a recorded message
 * parsed and written again is byte-identical (and so `canonical-reader.ts` can prove a fast reading by
 * writing it back). Every text written is ASCII, as rddlsim writes through a US-ASCII writer: each
 * character is one byte on the wire.
 */
import { javaDoubleToString, javaIntegerToString } from './java-format';
import type { RddlsimClientMessage, RddlsimServerMessage, WireAction, WireFluent } from './messages';
import { XML_HEADER, escapeXmlText, textElement } from './xml-text';

/** The text the server sends instead of a session-init when it cannot read the task files. */
export const NULL_SESSION_INIT_TEXT = 'null';

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
        (message.fluents === null ? '<no-observed-fluents/>' : fluentElements(message.fluents)) +
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
        : `<actions>${actionElements(message.actions)}</actions>`;
    case 'resource-request':
      return '<resource-request/>';
  }
}

// The two lists below are the bulk of the traffic; written with plain concatenation, the cheapest way to
// build a string in JavaScript engines, which matters to the proved fast path of parsing too.

function fluentElements(fluents: readonly WireFluent[]): string {
  let xml = '';
  for (const fluent of fluents) {
    xml += '<observed-fluent><fluent-name>' + escapeXmlText(fluent.name) + '</fluent-name>';
    for (const arg of fluent.args) xml += '<fluent-arg>' + escapeXmlText(arg) + '</fluent-arg>';
    xml += '<fluent-value>' + escapeXmlText(fluent.value) + '</fluent-value></observed-fluent>';
  }
  return xml;
}

function actionElements(actions: readonly WireAction[]): string {
  let xml = '';
  for (const action of actions) {
    xml += '<action><action-name>' + escapeXmlText(action.name) + '</action-name>';
    for (const arg of action.args) xml += '<action-arg>' + escapeXmlText(arg) + '</action-arg>';
    xml += '<action-value>' + escapeXmlText(action.value) + '</action-value></action>';
  }
  return xml;
}
