/** The GAMA scavenger protocol's messages, decoded. */
import type { ScavengerObservation } from '../../envs/scavenger';

/** `{ "scenario": name }`: the simulation's first message, from GAMA's global agent. */
export interface GamaScenarioMessage {
  type: 'scenario';
  scenario: string;
}

/** `{ "id", "connect": true }`: a scavenger introduces itself. */
export interface GamaConnectMessage {
  type: 'connect';
  id: string;
}

/** `{ "id", "request": { "state", "reward", "terminal"? } }`: a scavenger asks for its action. */
export interface GamaRequestMessage {
  type: 'request';
  id: string;
  state: ScavengerObservation;
  /** Dimensions of the state: [rows, columns] or [planes, rows, columns]. */
  shape: number[];
  /** The reward of the previous action (the original always sends a number; the text allows null). */
  reward: number | null;
  terminal: boolean;
}

/** A message GAMA sends. */
export type GamaMessage = GamaScenarioMessage | GamaConnectMessage | GamaRequestMessage;

/** The API's `Scav. n;action`, as GAMA splits it. */
export interface GamaReply {
  id: string;
  action: string;
  /** Fields after the action (GAMA ignores them). */
  extraFields: number;
}

/** Message types in protocol order, for the log's filter. */
export const GAMA_MESSAGE_TYPES = ['scenario', 'connect', 'request', 'terminal', 'reply'] as const;
