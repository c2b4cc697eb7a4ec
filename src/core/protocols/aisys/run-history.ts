/**
 * One run's history read from the wire, for per-run views (a board stepped through move by move): each
 * action request of the run with its percept, the action the server applied for it (the last one sent with
 * that `act_no`: a refused action is answered again with the same number), what the server said about the
 * actions sent for it, and the run's outcome once it finishes. Protocol version 1 only (version 0 folds
 * the run into its ids and flattens its messages).
 */
import type { TranscriptMessage } from '../../transcript/model';
import { readActRequest } from './act-request';
import { readResponse } from './codec';
import type { JsonValue } from './messages';
import { bodyOf } from './recorded-readings';

/** One action request of a run and what became of it. */
export interface AisysRunStep {
  actNo: number;
  percept: JsonValue;
  /** The action the agent sent last for this request; absent while unanswered. */
  action?: JsonValue;
  /** What the server said about the actions sent for this request, in order (refusals included). */
  messages: { type: string; content: string }[];
  /** Index of the message that first carried the request. */
  index: number;
}

/** A run's steps in `act_no` order, and its outcome once it has one. */
export interface AisysRunHistory {
  steps: AisysRunStep[];
  outcome?: JsonValue;
}

/** A run id as a number when it spells one (the server echoes `"026"` for run 26). */
function sameRun(a: string, b: string): boolean {
  return a === b || (/^\s*\d+\s*$/.test(a) && /^\s*\d+\s*$/.test(b) && Number(a) === Number(b));
}

/** Reads the history of run `run` from a transcript's messages. */
export function readAisysRunHistory(messages: readonly TranscriptMessage[], run: string): AisysRunHistory {
  const steps: AisysRunStep[] = [];
  let outcome: JsonValue | undefined;
  /** Act numbers of this run's actions per exchange, to file the answer's messages under. */
  const sent = new Map<number, number[]>();
  for (const message of messages) {
    const http = message.http;
    if (message.kind !== 'data' || !http) continue;
    const { exchange, ...meta } = http;
    const halfExchange = { meta, ...bodyOf(message) };
    if (message.dir === 'c2s') {
      const reading = readActRequest(halfExchange);
      if (!reading.ok || reading.version !== 1) continue;
      const numbers: number[] = [];
      for (const action of reading.request.actions) {
        if (!sameRun(action.run, run)) continue;
        numbers.push(action.act_no);
        const step = steps[action.act_no];
        if (step) step.action = action.action;
      }
      if (numbers.length) sent.set(exchange, numbers);
      continue;
    }
    const reading = readResponse(halfExchange);
    if (reading.kind !== 'v1') continue;
    const { response } = reading;
    const numbers = sent.get(exchange) ?? [];
    const said = response.messages.filter((m) => m.run !== null && sameRun(m.run, run));
    // One action per run and request is the rule; with several, the messages go to the last.
    const about = steps[numbers[numbers.length - 1] ?? -1];
    if (about) for (const { type, content } of said) about.messages.push({ type, content });
    for (const request of response.action_requests)
      if (sameRun(request.run, run) && !steps[request.act_no])
        steps[request.act_no] = {
          actNo: request.act_no,
          percept: request.percept,
          messages: [],
          index: message.index,
        };
    for (const [id, value] of Object.entries(response.finished_runs)) if (sameRun(id, run)) outcome = value;
  }
  const dense = steps.filter((step) => step !== undefined);
  return outcome === undefined ? { steps: dense } : { steps: dense, outcome };
}
