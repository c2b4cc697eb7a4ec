/**
 * Reads an aisys transcript for the views, from the wire alone (annotations add only policy logs and
 * notes): a log row per message with its method and path or its status, a round per run (numbered by its
 * run id, the global integer the server gives it) whose total is its outcome, a turn per action request
 * with the percept the agent was shown, and notes for what the server warned about. Many runs play at
 * once, so rounds end in the order runs finish, not in id order.
 */
import type { Annotation, TranscriptMessage } from '../../transcript/model';
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
  ValueRow,
} from '../reading';
import { actPathEnvironment, type ResponseReading } from './codec';
import { runId } from './conversation';
import { readRecordedRequest, readRecordedResponse } from './recorded-readings';
import type { AisysActionRequest, AisysMessage, JsonValue } from './messages';

/** The message types of the log's filter, in the order a session uses them. */
export const AISYS_MESSAGE_TYPES = [
  'act',
  'answer',
  'error',
  'busy',
  'makeenv',
  'makeagent',
  'blockagent',
  'unblockagent',
  'results',
  'other',
] as const;

/** A value as a row shows it: strings as they are, everything else as JSON. */
function show(value: JsonValue): string {
  if (typeof value === 'string') return value;
  // A number, boolean or null reads as JSON writes it (a run's outcome, nearly always).
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The percept as rows: an object's keys one per row, anything else as one `percept` row. */
export function perceptRows(percept: JsonValue): ValueRow[] {
  if (percept !== null && typeof percept === 'object' && !Array.isArray(percept))
    return Object.entries(percept).map(([name, value]) => ({ name, args: [], value: show(value) }));
  return [{ name: 'percept', args: [], value: show(percept) }];
}

/** An outcome as a reward: numbers as they are, booleans as 1 and 0, anything else none. */
function reward(outcome: JsonValue): number | undefined {
  if (typeof outcome === 'number') return outcome;
  if (typeof outcome === 'boolean') return outcome ? 1 : 0;
  return undefined;
}

/**
 * Creates a reader of aisys transcripts. `forgetMessages`: the caller keeps only the log rows and rounds
 * of each batch (an import's summary, a streamed inspection), so the turns and notes, which it forgets
 * unread, are not built; the rows and rounds are the same.
 */
export function createAisysReader({ forgetMessages = false } = {}): TranscriptReader {
  const messages: MessageSummary[] = [];
  const rounds: RoundSummary[] = [];
  const turns: TurnSnapshot[] = [];
  const notes: SessionNote[] = [];
  /** Requests by exchange: their route, to name their responses. */
  const requestTypes = new Map<number, string>();
  /** Actions seen per run, for the per-step rewards of its round. */
  const actionsOf = new Map<number, number>();

  function summarise(message: TranscriptMessage): MessageSummary {
    if (message.kind !== 'data') return row(message, message.kind, message.text ?? '');
    const http = message.http;
    if (!http) return row(message, 'other', message.text ?? '', 'not an HTTP message');
    if (message.dir === 'c2s') {
      const type = requestType(http.path);
      requestTypes.set(http.exchange, type);
      const line = `${http.method ?? '?'} ${http.path ?? '?'}`;
      if (type !== 'act') return row(message, type, line);
      const reading = readRecordedRequest(message);
      if (!reading.ok) {
        const why =
          'crash' in reading
            ? `the server crashes on it (${reading.crash.name})`
            : (reading.description ?? `HTTP ${reading.status}`);
        return row(message, type, `${line} · ${why}`, why);
      }
      const { request, version } = reading;
      for (const action of request.actions) {
        const run = runId(action.run);
        actionsOf.set(run, Math.max(actionsOf.get(run) ?? 0, action.act_no + 1));
      }
      const parts = [`${request.actions.length} action${request.actions.length === 1 ? '' : 's'}`];
      if (request.to_abandon.length) parts.push(`abandon ${request.to_abandon.join(', ')}`);
      if (!request.parallel_runs) parts.push('one run at a time');
      if (version === 0) parts.push('v0');
      return row(message, type, `${line} · ${parts.join(', ')}`);
    }
    const status = http.status ?? 0;
    const asked = requestTypes.get(http.exchange) ?? 'other';
    const reading = readRecordedResponse(message);
    if (status === 503) return row(message, 'busy', '503 busy: retry later');
    if (status !== 200 || reading.kind === 'error')
      return row(message, 'error', `${status} ${errorText(reading)}`);
    if (asked !== 'act') return row(message, asked, `${status}`);
    return readAnswer(reading, message);
  }

  function readAnswer(reading: ResponseReading, message: TranscriptMessage): MessageSummary {
    const index = message.index;
    let requests: AisysActionRequest[];
    let finished: [string, JsonValue][];
    let said: AisysMessage[];
    if (reading.kind === 'v1') {
      requests = reading.response.action_requests;
      finished = Object.entries(reading.response.finished_runs);
      said = reading.response.messages;
    } else if (reading.kind === 'v0') {
      requests = reading.requests;
      finished = [];
      said = [
        ...reading.errors.map((content) => ({ type: 'error' as const, content, run: null })),
        ...reading.messages.map((content) => ({ type: 'info' as const, content, run: null })),
      ];
    } else {
      const problem = reading.kind === 'unreadable' ? reading.problem : `a ${reading.kind} body`;
      return row(message, 'answer', `200 · ${problem}`, problem);
    }
    for (const request of requests) {
      const run = runId(request.run);
      actionsOf.set(run, Math.max(actionsOf.get(run) ?? 0, request.act_no));
      if (forgetMessages) continue;
      turns.push({
        index,
        round: run,
        turn: request.act_no + 1,
        observed: perceptRows(request.percept),
        noObservation: false,
      });
    }
    for (const [run, outcome] of finished) {
      const id = runId(run);
      const total = reward(outcome);
      const steps = Math.max(1, actionsOf.get(id) ?? 1);
      // The outcome is the last step's reward; the steps before it earn nothing.
      const stepRewards = new Array<number>(steps).fill(0);
      stepRewards[steps - 1] = total ?? 0;
      rounds.push(
        total !== undefined
          ? { round: id, total, stepRewards, endIndex: index }
          : { round: id, stepRewards, endIndex: index },
      );
    }
    for (const m of said) {
      if (m.type === 'info' || forgetMessages) continue;
      notes.push({
        index,
        kind: 'note',
        text: `${m.type}${m.run !== null ? ` (run ${m.run})` : ''}: ${m.content}`,
      });
    }
    const parts = [`${requests.length} request${requests.length === 1 ? '' : 's'}`];
    if (finished.length)
      parts.push(`finished ${finished.map(([run, outcome]) => `${run}: ${show(outcome)}`).join(', ')}`);
    let errors = 0;
    for (const m of said) if (m.type === 'error') errors++;
    if (errors) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
    return row(message, 'answer', `200 · ${parts.join(' · ')}`);
  }

  function attach(annotation: Annotation): void {
    if (forgetMessages) return;
    const data = annotation.data as { text?: string; message?: string; level?: string } | undefined;
    const text =
      data?.text ?? data?.message ?? (typeof annotation.data === 'string' ? annotation.data : undefined);
    if (text === undefined) return;
    if (annotation.type === 'policy-log')
      notes.push({
        index: annotation.index,
        kind: 'policy-log',
        text,
        ...(data?.level ? { level: data.level } : {}),
      });
    else if (annotation.type === 'note' || annotation.type === 'violation' || annotation.type === 'error')
      notes.push({ index: annotation.index, kind: annotation.type, text });
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

/** A log row: the message's place, its type and gist, and why it could not be read when it could not. */
function row(message: TranscriptMessage, type: string, gist: string, unreadable?: string): MessageSummary {
  const { index, dir, conn, t } = message;
  return unreadable === undefined
    ? { index, dir, conn, t, type, gist }
    : { index, dir, conn, t, type, gist, unreadable };
}

/** A request's type by its route. */
function requestType(path: string | undefined): string {
  if (actPathEnvironment(path) !== undefined) return 'act';
  const first = (path ?? '').replace(/^\/+/, '').split(/[/?]/)[0] ?? '';
  return (AISYS_MESSAGE_TYPES as readonly string[]).includes(first) ? first : 'other';
}

function errorText(reading: ResponseReading): string {
  switch (reading.kind) {
    case 'error':
      return reading.error.description;
    case 'html':
      return reading.title.replace(/^\d+ /, '');
    case 'unreadable':
      return reading.problem;
    default:
      return '';
  }
}
