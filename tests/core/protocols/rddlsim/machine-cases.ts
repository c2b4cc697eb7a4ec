/** Builders for hand-written rddlsim exchanges, shared by the machine tests. */
import type { ProtocolMachine, Violation } from '../../../../src/core/protocols/machine';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A line of an exchange: `C` (client) or `S` (server) and the root's body; `close` for a closing side. */
export type Line = [side: 'C' | 'S', body: string, framing?: 'none'];

/** Turns lines into transcript messages (client and server messages with the usual header). */
export function exchange(lines: Line[]): TranscriptMessage[] {
  return lines.map(([side, body, framing], index) => {
    const dir = side === 'C' ? 'c2s' : 's2c';
    if (body === 'close') return { index, conn: 's', dir, t: index, kind: 'close' };
    const text = framing === 'none' || body === 'null' ? body : HEADER + body;
    return { index, conn: 's', dir, t: index, kind: 'data', text, ...(framing ? { framing } : {}) };
  });
}

export const SESSION_REQUEST =
  '<session-request><problem-name>p</problem-name><client-name>c</client-name></session-request>';
export const sessionInit = (rounds: number) =>
  `<session-init><task>AA==</task><session-id>1</session-id><num-rounds>${rounds}</num-rounds><time-allowed>1080000.0</time-allowed></session-init>`;
export const ROUND_REQUEST = '<round-request/>';
export const roundInit = (round: number, left: number) =>
  `<round-init><round-num>${round}</round-num><round-left>${left}</round-left><time-left>1000.0</time-left></round-init>`;
export const turn = (n: number, reward = n === 1 ? '0.0' : '1.0') =>
  `<turn><turn-num>${n}</turn-num><time-left>900.0</time-left><immediate-reward>${reward}</immediate-reward></turn>`;
export const NOOP = '<actions/>';
export const roundEnd = (round: number, turns: number, timeLeft = 800) =>
  `<round-end><instance-name>p</instance-name><client-name>c</client-name><round-num>${round}</round-num><round-reward>2.0</round-reward><turns-used>${turns}</turns-used><time-left>${timeLeft}</time-left><immediate-reward>1.0</immediate-reward></round-end>`;
export const SESSION_END =
  '<session-end><instance-name>p</instance-name><total-reward>2.0</total-reward><rounds-used>1</rounds-used><client-name>c</client-name><session-id>1</session-id><time-left>700</time-left></session-end>';
export const RESOURCE_REQUEST = '<resource-request/>';
export const RESOURCE_NOTIFICATION =
  '<resource-notification><time-left>1.0</time-left><memory-left>enough</memory-left></resource-notification>';

/** A complete one-round, two-turn session. */
export const ONE_ROUND: Line[] = [
  ['C', SESSION_REQUEST],
  ['S', sessionInit(1)],
  ['C', ROUND_REQUEST],
  ['S', roundInit(1, 0)],
  ['S', turn(1)],
  ['C', NOOP],
  ['S', turn(2)],
  ['C', NOOP],
  ['S', roundEnd(0, 2)],
  ['S', SESSION_END],
  ['S', 'close'],
  ['C', 'close'],
];

/** A session's opening up to its first turn, the client asking for the round before the session-init came. */
export const PIPELINED_OPENING: Line[] = [
  ['C', SESSION_REQUEST],
  ['C', ROUND_REQUEST],
  ['S', sessionInit(1)],
  ['S', roundInit(1, 0)],
  ['S', turn(1)],
];

/**
 * Plays the lines through the machine from its initial state, freezing every state it returns (so a
 * machine that changes a state it was given throws): the indexes of the messages it refused, and what
 * it says about stopping after the last one.
 */
export function playFrozen<S>(
  machine: ProtocolMachine<S>,
  lines: Line[],
): { refused: number[]; end: Violation | null } {
  let state = Object.freeze(machine.initial());
  const refused: number[] = [];
  const messages = exchange(lines);
  for (const message of messages) {
    const step = machine.accept(state, message);
    if (!step.ok) refused.push(message.index);
    state = Object.freeze(step.state);
  }
  return { refused, end: machine.finish(state, messages.length - 1) };
}
