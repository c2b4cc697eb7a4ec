/**
 * The counter game, a protocol that exists only in the tests to prove the protocol contract: the server
 * says `start` with a target, then `state` (value, reward of the last step) until the value reaches the
 * target, then `end` with the total. The client answers every `state` with `add` (amount 1 or 2).
 */
export type CounterServerMessage =
  | { type: 'start'; target: number }
  | { type: 'state'; value: number; reward: number }
  | { type: 'end'; total: number };

export type CounterClientMessage = { type: 'add'; amount: number };

/** Reads a message; undefined when it is not JSON or has no string `type`. */
export function readCounterMessage(
  text: string | undefined,
): { type: string; [key: string]: unknown } | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string')
      return value as { type: string };
  } catch {
    // not JSON: the caller reports it
  }
  return undefined;
}
