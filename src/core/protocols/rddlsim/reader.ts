/**
 * Reads an rddlsim transcript for the views: one log row per message, round totals and per-step rewards for
 * the chart, the observed fluents of every turn for the state panel, and the notes hanging off messages.
 * Works on any rddlsim transcript (emulated, recorded from a real server, pasted), message by message as
 * they arrive, from the wire text alone; annotations only add what the wire cannot carry (true state,
 * policy logs, notes).
 */
import type { Annotation, TranscriptMessage } from '../../transcript/model';
import { decodeTranscriptMessage } from './decoded-message';
import type { RddlsimMessage, WireAction } from './messages';
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
  ValueRow,
} from '../reading';
import { annotationNote, annotationWorld } from './reader-annotations';

/** rddlsim message types in the order a session uses them, for the log's filter. */
export const RDDLSIM_MESSAGE_TYPES = [
  'session-request',
  'session-init',
  'round-request',
  'round-init',
  'turn',
  'actions',
  'round-end',
  'session-end',
  'resource-request',
  'resource-notification',
] as const;

/** Formats a reward for a gist: at most 6 significant digits, no trailing zeros. */
function formatReward(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

function describeAction(action: WireAction): string {
  const call = action.args.length ? `${action.name}(${action.args.join(', ')})` : action.name;
  return action.value === 'true' ? call : `${call} = ${action.value}`;
}

/**
 * A log row: the message's place, type and gist, with the round when inside one (round 0 is before the
 * first) and the turn when there is one. Written out in full for each shape: a big import builds one per
 * message, and objects of a fixed shape are the cheapest to build.
 */
function row(
  message: TranscriptMessage,
  type: string,
  round: number,
  turn: number | undefined,
  gist: string,
): MessageSummary {
  const { index, dir, conn, t } = message;
  if (round)
    return turn !== undefined
      ? { index, dir, conn, t, type, round, turn, gist }
      : { index, dir, conn, t, type, round, gist };
  return turn !== undefined ? { index, dir, conn, t, type, turn, gist } : { index, dir, conn, t, type, gist };
}

/** Creates a reader for rddlsim transcripts. */
export function createRddlsimReader(): TranscriptReader {
  const messages: MessageSummary[] = [];
  const rounds: RoundSummary[] = [];
  const turns: TurnSnapshot[] = [];
  const notes: SessionNote[] = [];
  /** The round currently being played (counted by round-init), 0 before the first. */
  let round = 0;
  let turn: number | undefined;
  let plannedRounds: number | undefined;
  /** Turns seen in the current round, to tell whether round-end's reward is a new step's. */
  let turnsInRound = 0;

  function summarise(message: TranscriptMessage): MessageSummary {
    const decoded = decodeTranscriptMessage(message);
    if (decoded.kind !== 'data') return row(message, decoded.kind, 0, undefined, message.text ?? '');
    if (!decoded.result.ok) {
      const root = /<([A-Za-z][\w.-]*)/.exec(message.text ?? '')?.[1];
      return {
        ...row(message, root ?? 'unreadable', round, undefined, decoded.result.error.message),
        unreadable: decoded.result.error.format(),
      };
    }
    return read(decoded.result.message, message);
  }

  /** Updates the session position and the chart and state data; returns the message's log row. */
  function read(message: RddlsimMessage, wire: TranscriptMessage): MessageSummary {
    const index = wire.index;
    switch (message.type) {
      case 'session-request':
        return row(wire, message.type, 0, undefined, `${message.problemName} for ${message.clientName}`);
      case 'session-init':
        plannedRounds = message.numRounds;
        return row(
          wire,
          message.type,
          0,
          undefined,
          `session ${message.sessionId}, ${message.numRounds} rounds`,
        );
      case 'session-init-null':
        return row(wire, 'session-init', 0, undefined, 'null: the server could not read the task');
      case 'round-request':
        return row(
          wire,
          message.type,
          round + 1,
          undefined,
          message.executePolicy ? `execute-policy ${message.executePolicy}` : '',
        );
      case 'round-init':
        round++;
        turn = undefined;
        turnsInRound = 0;
        rounds.push({ round, stepRewards: [] });
        return row(
          wire,
          message.type,
          round,
          undefined,
          `round ${message.roundNum}${plannedRounds ? ` of ${plannedRounds}` : ''}, ${message.roundLeft} left`,
        );
      case 'turn': {
        turn = message.turnNum;
        turnsInRound++;
        const current = rounds[rounds.length - 1];
        if (current && turnsInRound > 1) current.stepRewards.push(message.immediateReward);
        const observed: ValueRow[] = (message.fluents ?? []).map((f) => ({
          name: f.name,
          args: f.args,
          value: f.value,
        }));
        turns.push({
          index,
          round,
          turn: message.turnNum,
          reward: message.immediateReward,
          observed,
          noObservation: message.fluents === null,
        });
        const count = message.fluents === null ? 'no observation' : `${observed.length} fluents`;
        return row(
          wire,
          message.type,
          round,
          turn,
          `reward ${formatReward(message.immediateReward)} · ${count}`,
        );
      }
      case 'actions':
        return row(
          wire,
          message.type,
          round,
          turn,
          message.actions.length ? message.actions.map(describeAction).join(', ') : 'noop',
        );
      case 'round-end': {
        const current = rounds[rounds.length - 1];
        if (current) {
          // The last step's reward appears only here, unless the round ended before that step ran
          // (illegal action, time out): then it repeats the previous step's.
          if (message.turnsUsed >= turnsInRound && turnsInRound > 0)
            current.stepRewards.push(message.immediateReward);
          current.total = message.roundReward;
          current.endIndex = index;
        }
        const ended = turn;
        turn = undefined;
        return row(
          wire,
          message.type,
          round,
          ended,
          `round reward ${formatReward(message.roundReward)}, ${message.turnsUsed} turns`,
        );
      }
      case 'session-end':
        return row(
          wire,
          message.type,
          0,
          undefined,
          `total reward ${formatReward(message.totalReward)} over ${message.roundsUsed} rounds`,
        );
      case 'resource-request':
        return row(wire, message.type, round, turn, '');
      case 'resource-notification':
        return row(
          wire,
          message.type,
          round,
          turn,
          `${message.timeLeft} ms left, memory ${message.memoryLeft}`,
        );
    }
  }

  function attach(annotation: Annotation): void {
    if (annotation.type === 'world') {
      const rows = annotationWorld(annotation.data);
      const snapshot = turns.findLast((t) => t.index <= annotation.index);
      if (rows && snapshot) snapshot.world = rows;
      return;
    }
    const note = annotationNote(annotation);
    if (note) notes.push(note);
  }

  return {
    messages,
    rounds,
    turns,
    notes,
    append(newMessages, newAnnotations) {
      for (const message of newMessages) messages.push(summarise(message));
      for (const annotation of newAnnotations) attach(annotation);
    },
  };
}
