/**
 * What both roles' machines know of one agent's conversation with the server, message by message: the
 * requests waiting for their responses, the runs the server is waiting for (run id and action number),
 * and what each exchange broke. A request is judged as the server would take it; a response as a client
 * may expect it, given what it asked. The state is plain data and never mutated.
 */
import type { TranscriptMessage } from '../../transcript/model';
import type { Violation } from '../machine';
import { actPathEnvironment, type ResponseReading } from './codec';
import type { AisysResponse, ProtocolVersion } from './messages';
import { readRecordedRequest, readRecordedResponse } from './recorded-readings';

/** A request waiting for its response. */
export interface PendingRequest {
  exchange: number;
  /** False for requests that are not `/act` (admin, results): their responses are not judged. */
  act: boolean;
  version?: ProtocolVersion;
  parallel?: boolean;
  /** The actions sent: run as the client spelled it, its id as a number (NaN if none), action number. */
  actions: { run: string; id: number; actNo: number }[];
  abandoned: string[];
  /** True when the request's body was not recorded: what it did is unknown, and its answer is not judged against it. */
  notRecorded?: boolean;
}

/**
 * The requests waiting for their responses, newest first, as a list whose tails states share: a request
 * is added without copying those before it, and a response to a recent request drops it copying only the
 * newer ones. A recording whose responses are lost leaves its requests waiting; copying them all at every
 * new request made reading it quadratic.
 */
export interface PendingList {
  readonly request: PendingRequest;
  readonly older: PendingList | undefined;
  readonly size: number;
}

/** The requests waiting, oldest first. */
export function pendingRequests(state: ConversationState): PendingRequest[] {
  const requests: PendingRequest[] = [];
  for (let at = state.pending; at; at = at.older) requests.push(at.request);
  return requests.reverse();
}

/** The list without `request` (the list itself when it does not hold it). */
function withoutRequest(list: PendingList | undefined, request: PendingRequest): PendingList | undefined {
  const newer: PendingRequest[] = [];
  let at = list;
  while (at && at.request !== request) {
    newer.push(at.request);
    at = at.older;
  }
  if (!at) return list;
  let rest = at.older;
  for (let i = newer.length - 1; i >= 0; i--)
    rest = { request: newer[i]!, older: rest, size: (rest?.size ?? 0) + 1 };
  return rest;
}

/** The conversation so far. */
export interface ConversationState {
  pending: PendingList | undefined;
  /** Runs the server asked for and has not had an answer to: run id -> action number (never changed). */
  asked: ReadonlyMap<number, number>;
  /** The active runs of the last response. */
  active: number[];
  /**
   * After a crash (500), or a body that was not recorded, what was applied or asked is unknown: nothing is
   * judged that depends on it until a 200 whose body was recorded.
   */
  uncertain: boolean;
}

export const INITIAL_CONVERSATION: ConversationState = {
  pending: undefined,
  asked: new Map(),
  active: [],
  uncertain: false,
};

/** What one message did: the new state, and the rule it broke (requests for the server, responses for the client). */
export interface ConversationStep {
  state: ConversationState;
  requestViolation?: Violation;
  responseViolation?: Violation;
}

/** A violation whose sentence names the message, what was expected, what came, and the rule. */
export function aisysViolation(index: number, rule: string, expected: string, got: string): Violation {
  return {
    index,
    rule,
    expected,
    got,
    message: `message ${index}: expected ${expected}, got ${got} [${rule}]`,
  };
}

/**
 * The last step taken. Both roles' machines take the same step from the same state for every message (a
 * validation feeds a message to one and then the other): the second gets the step the first took.
 */
let lastStep: { state: ConversationState; message: TranscriptMessage; step: ConversationStep } | undefined;

/**
 * Feeds one message to the conversation. An `error` record with an exchange's `http` is a half whose body
 * a recording did not keep (a HAR export without the bodies): it is not judged, and what depends on it is
 * not judged until it is known again.
 */
export function advanceConversation(state: ConversationState, message: TranscriptMessage): ConversationStep {
  if (!message.http || (message.kind !== 'data' && message.kind !== 'error')) return { state };
  if (lastStep?.state === state && lastStep.message === message) return lastStep.step;
  const step =
    message.kind === 'error'
      ? message.dir === 'c2s'
        ? afterUnrecordedRequest(state, message)
        : afterUnrecordedResponse(state, message)
      : message.dir === 'c2s'
        ? afterRequest(state, message)
        : afterResponse(state, message);
  lastStep = { state, message, step };
  return step;
}

/** A run id as a number (NaN when it spells none); plain digits, the usual spelling, are read without a pattern. */
export function runId(text: string): number {
  const length = text.length;
  if (length > 0 && length < 16) {
    let value = 0;
    let i = 0;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 48 || code > 57) break;
      value = value * 10 + (code - 48);
    }
    if (i === length) return value;
  }
  return /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
}

/** As `Array.prototype.includes` compares (NaN is NaN): whether `ids` holds `id`. */
function holds(ids: readonly number[], id: number): boolean {
  for (const other of ids) if (other === id || (other !== other && id !== id)) return true;
  return false;
}

/** As a Map counts its keys (NaN is one key): how many of `ids` are `id`. */
function count(ids: readonly number[], id: number): number {
  let found = 0;
  for (const other of ids) if (other === id || (other !== other && id !== id)) found++;
  return found;
}

/**
 * Run ids in the order an object keyed by them would list its keys: array indices ascending, then the
 * others in the order they were added. Messages and the outstanding-first rule read runs in this order.
 */
function inKeyOrder(ids: Iterable<number>): number[] {
  const indices: number[] = [];
  const others: number[] = [];
  for (const id of ids) (Number.isInteger(id) && id >= 0 && id < 2 ** 32 - 1 ? indices : others).push(id);
  return [...indices.sort((a, b) => a - b), ...others];
}

/** The runs `ids` (all of `asked` when not given) with the action numbers asked for, for a violation. */
function describeRuns(asked: ReadonlyMap<number, number>, ids: Iterable<number> = asked.keys()): string {
  const runs = inKeyOrder(ids).map((run) => `${run}#${asked.get(run)}`);
  return runs.length ? runs.join(', ') : 'none';
}

/** The step of a request: the state with it waiting for its response, and the rule it broke. */
function withRequest(
  state: ConversationState,
  pending: PendingRequest,
  violation?: Violation,
): ConversationStep {
  const step: ConversationStep = {
    state: {
      pending: { request: pending, older: state.pending, size: (state.pending?.size ?? 0) + 1 },
      asked: state.asked,
      active: state.active,
      uncertain: state.uncertain,
    },
  };
  if (violation) step.requestViolation = violation;
  return step;
}

/** Whether a request is part of the conversation: a CORS preflight (OPTIONS) or HEAD is plain HTTP. */
function isActRequest(message: TranscriptMessage): boolean {
  const method = (message.http!.method ?? 'GET').toUpperCase();
  return actPathEnvironment(message.http!.path) !== undefined && method !== 'OPTIONS' && method !== 'HEAD';
}

/** The request of `exchange` waiting for its response, if any. */
function pendingFor(state: ConversationState, exchange: number): PendingRequest | undefined {
  for (let at = state.pending; at; at = at.older) if (at.request.exchange === exchange) return at.request;
  return undefined;
}

/** A request whose body was not recorded: its actions are unknown, so are the runs the server asks next. */
function afterUnrecordedRequest(state: ConversationState, message: TranscriptMessage): ConversationStep {
  const act = isActRequest(message);
  const pending: PendingRequest = {
    exchange: message.http!.exchange,
    act,
    actions: [],
    abandoned: [],
    notRecorded: true,
  };
  return withRequest(act ? { ...state, uncertain: true } : state, pending);
}

/**
 * A response whose body was not recorded: the runs it asked for are unknown until a recorded answer. The
 * runs its request acted on or abandoned are no longer waited for (a refused action's run is asked for
 * again, so a later answer brings it back).
 */
function afterUnrecordedResponse(state: ConversationState, message: TranscriptMessage): ConversationStep {
  const exchange = message.http!.exchange;
  const request = pendingFor(state, exchange);
  if (!request) return unsolicited(state, message.index, exchange);
  const pending = withoutRequest(state.pending, request);
  if (!request.act) return { state: { ...state, pending } };
  const done = [...request.actions.map((action) => action.id), ...request.abandoned.map(runId)];
  const asked = new Map<number, number>();
  state.asked.forEach((actNo, id) => {
    if (!holds(done, id)) asked.set(id, actNo);
  });
  return { state: { pending, asked, active: state.active, uncertain: true } };
}

function afterRequest(state: ConversationState, message: TranscriptMessage): ConversationStep {
  const exchange = message.http!.exchange;
  const method = (message.http!.method ?? 'GET').toUpperCase();
  const isAct = isActRequest(message);
  const pending: PendingRequest = { exchange, act: isAct, actions: [], abandoned: [] };
  if (!isAct) return withRequest(state, pending);
  const at = message.index;
  if (method !== 'PUT' && method !== 'GET')
    return withRequest(
      state,
      pending,
      aisysViolation(at, 'aisys.request.method', 'PUT (or GET) to /act', method),
    );
  const reading = readRecordedRequest(message);
  if (!reading.ok) {
    const got =
      'crash' in reading ? `a body the server crashes on (${reading.crash.name})` : reading.description;
    return withRequest(
      state,
      pending,
      aisysViolation(
        at,
        requestRule(reading.status, got),
        'a request the server accepts',
        got ?? `HTTP ${reading.status}`,
      ),
    );
  }
  const { request, version } = reading;
  pending.version = version;
  pending.parallel = request.parallel_runs;
  const actions: PendingRequest['actions'] = [];
  for (const action of request.actions)
    actions.push({ run: action.run, id: runId(action.run), actNo: action.act_no });
  pending.actions = actions;
  pending.abandoned = request.to_abandon;
  if (state.uncertain) return withRequest(state, pending);
  const seen: number[] = [];
  for (const action of pending.actions) {
    if (holds(seen, action.id))
      return withRequest(
        state,
        pending,
        aisysViolation(
          at,
          'aisys.action.duplicate',
          'one action per run and request',
          `a second action for run ${action.run}`,
        ),
      );
    seen.push(action.id);
    if (request.to_abandon.length > 0 && request.to_abandon.some((run) => runId(run) === action.id))
      return withRequest(
        state,
        pending,
        aisysViolation(
          at,
          'aisys.action.abandoned-run',
          'no action for a run abandoned in the same request',
          `${action.run}#${action.actNo}`,
        ),
      );
    const asked = state.asked.get(action.id);
    if (asked === undefined)
      return withRequest(
        state,
        pending,
        aisysViolation(
          at,
          'aisys.action.unrequested',
          `actions for the runs asked for (${describeRuns(state.asked)})`,
          `${action.run}#${action.actNo}`,
        ),
      );
    if (asked !== action.actNo)
      return withRequest(
        state,
        pending,
        aisysViolation(
          at,
          'aisys.action.act-no',
          `action number ${asked} for run ${action.run}`,
          `${action.actNo}`,
        ),
      );
  }
  for (const run of request.to_abandon) {
    if (!holds(state.active, runId(run)))
      return withRequest(
        state,
        pending,
        aisysViolation(
          at,
          'aisys.abandon.inactive',
          `abandoning active runs (${state.active.join(', ') || 'none'})`,
          `run ${run}`,
        ),
      );
  }
  return withRequest(state, pending);
}

function requestRule(status: number, description: string | undefined): string {
  if (status === 415) return 'aisys.request.content-type';
  if (status === 413) return 'aisys.request.too-large';
  if (status === 500) return 'aisys.request.body-type';
  if (description === 'Expected JSON body') return 'aisys.request.empty';
  if (description?.startsWith('Unsupported protocol version')) return 'aisys.request.version';
  if (description?.startsWith('Malformed request body')) return 'aisys.request.schema';
  return 'aisys.request.json';
}

/** A response at `index` to an exchange no pending request is waiting for. */
function unsolicited(state: ConversationState, index: number, exchange: number): ConversationStep {
  return {
    state,
    responseViolation: aisysViolation(
      index,
      'aisys.response.unsolicited',
      'a response to a request',
      `a response to exchange ${exchange}`,
    ),
  };
}

/** Statuses the real server answers `/act` with (503 comes from a proxy in front of it). */
const KNOWN_STATUSES = new Set([200, 400, 401, 404, 405, 413, 415, 500, 503]);

function afterResponse(state: ConversationState, message: TranscriptMessage): ConversationStep {
  const at = message.index;
  const exchange = message.http!.exchange;
  const request = pendingFor(state, exchange);
  if (!request) return unsolicited(state, at, exchange);
  const rest: ConversationState = {
    pending: withoutRequest(state.pending, request),
    asked: state.asked,
    active: state.active,
    uncertain: state.uncertain,
  };
  if (!request.act) return { state: rest };
  const status = message.http!.status ?? 0;
  const fail = (rule: string, expected: string, got: string, next = rest): ConversationStep => ({
    state: next,
    responseViolation: aisysViolation(at, rule, expected, got),
  });
  if (!KNOWN_STATUSES.has(status))
    return fail('aisys.response.status', 'a status the server uses', `${status}`);
  const reading = readRecordedResponse(message);
  if (status !== 200) {
    // After a crash, actions before the crashing one may have been applied: the runs are unknown until the next answer.
    const next = status === 500 ? { ...rest, uncertain: true } : rest;
    if (status === 404 || status === 405 || status === 503) return { state: next };
    if (reading.kind !== 'error')
      return fail(
        'aisys.response.error-shape',
        'a JSON error body {errorcode, errorname, description}',
        describeReading(reading),
        next,
      );
    if (reading.error.errorcode !== status)
      return fail(
        'aisys.response.errorcode',
        `errorcode ${status}`,
        `errorcode ${reading.error.errorcode}`,
        next,
      );
    return { state: next };
  }
  if (request.notRecorded) {
    // What was sent is unknown: the answer is judged by its shape alone, and says what is asked now.
    if (reading.kind !== 'v0' && reading.kind !== 'v1')
      return fail('aisys.response.shape', 'an answer (version 0 or 1)', describeReading(reading));
    const requests = reading.kind === 'v1' ? reading.response.action_requests : reading.requests;
    const asked = new Map<number, number>();
    for (const r of requests) asked.set(runId(r.run), r.act_no);
    const active =
      reading.kind === 'v1' ? reading.response.active_runs.map(runId) : requests.map((r) => runId(r.run));
    return { state: { pending: rest.pending, asked, active, uncertain: false } };
  }
  if (request.version === 0) {
    if (reading.kind !== 'v0')
      return fail('aisys.response.shape', 'a version 0 answer', describeReading(reading));
    const response: AisysResponse = {
      action_requests: reading.requests,
      // Version 0 does not list active runs: the requests are all it says.
      active_runs: reading.requests.map((r) => r.run),
      messages: reading.errors.map((content) => ({
        type: 'error',
        content,
        run: /^(?:MessageType\.)?\w+: Run (\S+): /.exec(content)?.[1] ?? null,
      })),
      finished_runs: {},
    };
    return judgeAnswer(rest, request, response, at, false);
  }
  if (reading.kind !== 'v1')
    return fail(
      'aisys.response.shape',
      'action_requests, active_runs, messages and finished_runs',
      describeReading(reading),
    );
  return judgeAnswer(rest, request, reading.response, at, true);
}

function describeReading(reading: ResponseReading): string {
  switch (reading.kind) {
    case 'html':
      return `an HTML page (${reading.title})`;
    case 'error':
      return `an error body (${reading.error.errorcode} ${reading.error.description})`;
    case 'unreadable':
      return reading.problem;
    case 'v0':
      return 'a version 0 answer';
    case 'v1':
      return 'a version 1 answer';
  }
}

/** Judges a successful answer against the request and what was asked before; updates the runs asked for. */
function judgeAnswer(
  state: ConversationState,
  request: PendingRequest,
  response: AisysResponse,
  at: number,
  complete: boolean,
): ConversationStep {
  // A handful of runs per answer: lists are scanned rather than hashed, and each run id is read once.
  const requests = response.action_requests;
  const requestedIds: number[] = [];
  for (const r of requests) requestedIds.push(runId(r.run));
  const finishedRuns = Object.keys(response.finished_runs);
  const finished: number[] = [];
  for (const run of finishedRuns) finished.push(runId(run));
  const abandoned: number[] = [];
  for (const run of request.abandoned) abandoned.push(runId(run));
  // An action was applied unless an error message answered it: each failed action gets one.
  const failed: number[] = [];
  for (const m of response.messages) if (m.type === 'error') failed.push(runId(m.run ?? ''));
  const sent: number[] = [];
  for (const action of request.actions) sent.push(action.id);
  const applied: number[] = [];
  for (const action of request.actions) {
    let advanced = false;
    for (let i = 0; i < requests.length && !advanced; i++)
      advanced = requestedIds[i] === action.id && requests[i]!.act_no > action.actNo;
    const unanswered = failed.length === 0 || count(failed, action.id) < count(sent, action.id);
    if (holds(finished, action.id) || advanced || unanswered) applied.push(action.id);
  }
  // What stays outstanding: runs asked before, not answered, abandoned or finished now (`still`, in the
  // order they were asked); then what is asked now.
  const asked = new Map<number, number>();
  const still: number[] = [];
  state.asked.forEach((actNo, id) => {
    if (holds(applied, id) || holds(finished, id) || abandoned.some((other) => other === id)) return;
    asked.set(id, actNo);
    still.push(id);
  });
  for (let i = 0; i < requests.length; i++) asked.set(requestedIds[i]!, requests[i]!.act_no);
  let active = state.active;
  if (complete) {
    active = [];
    for (const run of response.active_runs) active.push(runId(run));
  }
  const next: ConversationState = { pending: state.pending, asked, active, uncertain: false };
  if (complete) {
    const missing = requests.find((r) => !response.active_runs.includes(r.run));
    if (missing)
      return brokeRule(
        next,
        at,
        'aisys.response.active-runs',
        'every run asked for among active_runs',
        `run ${missing.run} missing`,
      );
    if (!ascending(requestedIds) || !ascending(active))
      return brokeRule(
        next,
        at,
        'aisys.response.order',
        'runs in ascending id order',
        requests.map((r) => r.run).join(', '),
      );
    const stranger = finishedRuns.find((run) => !mentioned(request, run));
    if (stranger !== undefined)
      return brokeRule(
        next,
        at,
        'aisys.response.finished-runs',
        'finished_runs only for runs acted on or abandoned in the request',
        `run ${stranger}`,
      );
    for (const m of response.messages)
      if (m.run !== null && !mentioned(request, m.run))
        return brokeRule(
          next,
          at,
          'aisys.response.message-run',
          'messages only about runs named in the request',
          `run ${m.run}`,
        );
  }
  if (request.parallel === false && requests.length > 1)
    return brokeRule(
      next,
      at,
      'aisys.response.parallel',
      'one action request (parallel_runs was false)',
      `${requests.length}`,
    );
  if (state.uncertain) return { state: next };
  if (still.length > 0) {
    const waiting = inKeyOrder(still).sort((a, b) => a - b);
    let fresh = false;
    for (const id of requestedIds) if (!holds(still, id)) fresh = true;
    if (fresh || requests.length === 0 || requestedIds[0] !== waiting[0])
      return brokeRule(
        next,
        at,
        'aisys.response.outstanding-first',
        `the outstanding runs first, lowest id first (${describeRuns(state.asked, still)})`,
        requests.map((r) => `${r.run}#${r.act_no}`).join(', ') || 'no action request',
      );
  }
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i]!;
    const id = requestedIds[i]!;
    const askedBefore = state.asked.get(id);
    let action: PendingRequest['actions'][number] | undefined;
    for (const a of request.actions)
      if (a.id === id && a.actNo === askedBefore) {
        action = a;
        break;
      }
    const expected = action && holds(applied, id) ? action.actNo + 1 : askedBefore;
    if (expected !== undefined && r.act_no !== expected)
      return brokeRule(
        next,
        at,
        'aisys.response.act-no',
        `action number ${expected} for run ${r.run}`,
        `${r.act_no}`,
      );
  }
  return { state: next };
}

/** A step to `state` that broke `rule` at message `at`. */
function brokeRule(
  state: ConversationState,
  at: number,
  rule: string,
  expected: string,
  got: string,
): ConversationStep {
  return { state, responseViolation: aisysViolation(at, rule, expected, got) };
}

/** Whether the request acted on or abandoned the run, spelled as the client spelled it. */
function mentioned(request: PendingRequest, run: string | null | undefined): boolean {
  for (const action of request.actions) if (action.run === run) return true;
  for (const other of request.abandoned) if (other === run) return true;
  return false;
}

function ascending(ids: readonly number[]): boolean {
  return ids.every((id, i) => i === 0 || ids[i - 1]! < id);
}
