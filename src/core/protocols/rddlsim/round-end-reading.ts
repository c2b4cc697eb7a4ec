/**
 * Why the rounds of a recorded rddlsim session ended before their horizon, read from its messages alone:
 * the session-init's task is the RDDL played, each turn is the state observed, and the actions sent after
 * it are what the server checked. `EarlyRoundEnds` does the checking, as for a live `connect`; this feeds
 * it a transcript. Only the last turn and actions of each connection are kept, and a turn is decoded into
 * an observation only for a round that did end early.
 */
import { loadRddl, prepareRddlParser } from '../../envs/rddl/index';
import type { TranscriptMessage } from '../../transcript/model';
import type { EarlyRoundEnd, RoundEndReading } from '../contract';
import { decodeTask } from './client';
import { decodeTranscriptMessage } from './decoded-message';
import { EarlyRoundEnds } from './early-round-end';
import { rddlsimTaskRddl } from './host';
import type { Turn, WireAction } from './messages';
import { decodeObservation } from './observation';

/** What one connection has shown so far. */
interface Connection {
  problemName?: string;
  /** Undefined until a session-init whose task could be read as RDDL. */
  early?: EarlyRoundEnds;
  turn?: Turn;
  actions?: readonly WireAction[];
}

/** The model of a session-init task, or undefined when it cannot be read (the reader says nothing then). */
function modelOfTask(task: string, problemName: string | undefined): EarlyRoundEnds | undefined {
  const text = decodeTask(task);
  if (text === undefined) return undefined;
  try {
    const model = loadRddl([{ name: 'session-init task', text: rddlsimTaskRddl(text) }], {
      ...(problemName !== undefined ? { instance: problemName } : {}),
    });
    return new EarlyRoundEnds(model);
  } catch {
    return undefined;
  }
}

/**
 * Builds the RDDL parser a session's first task needs, ahead of a file (the page's `prepareOpen`): the
 * reading then starts at once. An open does not call it: the parser is built when the first task comes,
 * after the file's first part is on show.
 */
export function prepareRddlsimRoundEnds(): void {
  prepareRddlParser();
}

/** A fresh reading of one rddlsim session (any number of connections, numbered as the reader numbers rounds). */
export function createRddlsimRoundEndReading(): RoundEndReading {
  const ended: EarlyRoundEnd[] = [];
  const connections = new Map<string, Connection>();
  /**
   * Each task's model, read once for all the connections that play it (a server's recording of many
   * sessions). Shared safely: the state and actions are handed over right before each explanation.
   */
  const models = new Map<string, EarlyRoundEnds | undefined>();
  /** Counted over every connection on round-init, as `createRddlsimReader` counts. */
  let round = 0;
  return {
    ended,
    accept(message: TranscriptMessage) {
      if (message.kind !== 'data') return;
      const decoded = decodeTranscriptMessage(message);
      if (decoded.kind !== 'data' || !decoded.result.ok) return;
      const wire = decoded.result.message;
      let connection = connections.get(message.conn);
      if (!connection) connections.set(message.conn, (connection = {}));
      switch (wire.type) {
        case 'session-request':
          connection.problemName = wire.problemName;
          return;
        case 'session-init': {
          const key = `${connection.problemName ?? ''}\n${wire.task}`;
          if (!models.has(key)) models.set(key, modelOfTask(wire.task, connection.problemName));
          connection.early = models.get(key);
          return;
        }
        case 'round-init':
          round++;
          connection.turn = undefined;
          connection.actions = undefined;
          return;
        case 'turn':
          connection.turn = wire;
          connection.actions = undefined;
          return;
        case 'actions':
          connection.actions = wire.actions;
          return;
        case 'round-end': {
          const { early, turn, actions } = connection;
          if (!early) return;
          // The observation is decoded only for a round that did end early.
          if (!early.endsEarly(wire.turnsUsed)) return;
          early.observed(turn && decodeObservation(turn, round));
          if (actions) early.sent(actions);
          const why = early.explain({ turnsUsed: wire.turnsUsed, timeLeft: wire.timeLeft });
          if (why !== undefined) ended.push({ round, index: message.index, why });
          return;
        }
        default:
          return;
      }
    },
  };
}
