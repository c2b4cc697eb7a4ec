/**
 * What the aisys views show, read from the wire alone: each agent's runs (outstanding, active, finished
 * with their outcome), each run's history (the percept of every action request, the action sent, the
 * server's messages about it), the rating as the server keeps it (the average of the last outcomes, the
 * fully-evaluated threshold, best and current), and the HTTP exchanges with their timing. It reads any
 * aisys transcript, message by message: a session played here, or a recording of a real server.
 */
import { DEFAULT_ENV_SETTINGS, type AisysEnvSettings } from '../../../envs/aisys/api';
import type { TranscriptMessage } from '../../../transcript/model';
import type { HttpMessage } from '../../contract';
import { actPathEnvironment, aisysChannel, readResponse, type ResponseReading } from '../codec';
import { bodyOf, readRecordedRequest, readRecordedResponse } from '../recorded-readings';
import { AISYS_ENVIRONMENT_CLASSES, findAisysEnvironment } from '../environments';
import type { AisysMessage, AisysRequest, JsonValue } from '../messages';

/** Where a run stands after the last response. */
export type AisysRunStatus =
  /** Asked for in the last response and not answered yet. */
  | 'outstanding'
  /** Unfinished and not asked for (more active runs than action requests). */
  | 'active'
  | 'finished'
  /** No longer in the active runs without a known outcome (the client stopped following it). */
  | 'gone';

/** A row of the runs table. */
export interface AisysRunRow {
  id: string;
  status: AisysRunStatus;
  /** Action requests seen (the last one's `act_no` + 1). */
  steps: number;
  outcome?: JsonValue;
  /** Ended by the client's `to_abandon`. */
  abandoned?: boolean;
  /** The message that started and the one that ended the run. */
  startIndex: number;
  endIndex?: number;
}

/** The rating after one finished run, as the server computes it. */
export interface AisysRatingPoint {
  run: string;
  outcome: JsonValue;
  /** Finished runs counted so far (the server counts a run abandoned after it finished again). */
  totalRuns: number;
  current: number;
  best: number;
  fullyEvaluated: boolean;
  index: number;
}

/** The rating panel: like the server's agent page. */
export interface AisysRating {
  totalRuns: number;
  fullyEvaluated: boolean;
  /** Finished runs needed to be fully evaluated, and the window of the average. */
  threshold: number;
  objective: 'max' | 'min';
  current: number;
  best: number;
  /** False when the environment is not one Protoplay knows: the server's defaults are assumed. */
  settingsKnown: boolean;
}

/** One step of a run: the action request, the action sent for it, and what the server said. */
export interface AisysRunStep {
  actNo: number;
  percept: JsonValue;
  /** Index of the response that asked for it. */
  askedAt: number;
  /** The actions sent for it (more than one when the server refused one and asked again). */
  actions: { action: JsonValue; index: number }[];
  messages: AisysMessage[];
}

/** A run's history. */
export interface AisysRunHistory {
  id: string;
  env: string;
  agent: string;
  status: AisysRunStatus;
  outcome?: JsonValue;
  abandoned?: boolean;
  steps: AisysRunStep[];
}

/** A row of the HTTP exchange log. */
export interface AisysExchangeRow {
  /** The request's transcript index (its exchange number). */
  request: number;
  response?: number;
  method: string;
  path: string;
  status?: number;
  /** From the request's timestamp to the response's, in ms. */
  ms?: number;
  /** `env/agent` of an `/act` exchange. */
  channel?: string;
  /** What the response said, in a few words. */
  gist: string;
}

/** What the views' overview shows of one agent. */
export interface AisysOverview {
  /** Every agent (`env/agent`) the transcript holds, most exchanges first. */
  channels: string[];
  channel?: string;
  env?: string;
  agent?: string;
  rows: AisysRunRow[];
  counts: { outstanding: number; active: number; finished: number; gone: number };
  /** Finished runs left out of `rows` (the table keeps the latest). */
  omittedFinished: number;
  rating: AisysRating;
  /** The rating after every finished run, in order (evenly thinned beyond 2,000 runs). */
  series: AisysRatingPoint[];
  exchanges: number;
  /** The agent's last refused request: status and the server's error body, as sent. */
  lastError?: { status: number; body: string; index: number };
}

/**
 * Finished runs the table lists (the latest; the others are in the chart and the messages). Fifty rows
 * fill a tall pane; at 200, the first layout of an opened transcript's table was most of a main-thread
 * task of 58 to 75 ms of CPU (3,144 layout objects, against 1,494 with fifty).
 */
export const TABLE_FINISHED_RUNS = 50;
/** Points of the rating series an overview carries at most (evenly thinned, the last always kept). */
const SERIES_POINTS = 2000;

/** The series thinned to at most `SERIES_POINTS` points, evenly, keeping the last. */
function thinned(series: readonly AisysRatingPoint[]): AisysRatingPoint[] {
  if (series.length <= SERIES_POINTS) return [...series];
  const every = Math.ceil(series.length / SERIES_POINTS);
  const kept = series.filter((_, i) => i % every === 0);
  if (kept.at(-1) !== series.at(-1)) kept.push(series.at(-1)!);
  return kept;
}

/** One agent's conversation. */
class AgentBook {
  readonly runs = new Map<string, AisysRunRow & { history: AisysRunStep[] }>();
  /** The runs not finished: each response sets where they stand (finished ones never change again). */
  readonly #unfinished = new Set<AisysRunRow>();
  readonly series: AisysRatingPoint[] = [];
  readonly recent: number[] = [];
  exchanges = 0;
  lastError: AisysOverview['lastError'];
  readonly env: string;
  readonly agent: string;
  readonly settings: AisysEnvSettings;
  readonly settingsKnown: boolean;

  constructor(channel: string, settings: AisysEnvSettings | undefined) {
    const slash = channel.indexOf('/');
    this.env = channel.slice(0, slash);
    this.agent = channel.slice(slash + 1);
    this.settings = settings ?? DEFAULT_ENV_SETTINGS;
    this.settingsKnown = settings !== undefined;
  }

  rating(): AisysRating {
    const last = this.series.at(-1);
    const { minRunsForFullyEvaluated: threshold, ratingObjective: objective, initialRating } = this.settings;
    return {
      totalRuns: last?.totalRuns ?? 0,
      fullyEvaluated: last?.fullyEvaluated ?? false,
      threshold,
      objective,
      current: last?.current ?? initialRating,
      best: last?.best ?? initialRating,
      settingsKnown: this.settingsKnown,
    };
  }

  /** Applies an answered `/act` exchange. */
  answer(request: AisysRequest, body: string, status: number, index: number): void {
    this.exchanges++;
    if (status !== 200) {
      this.lastError = { status, body, index };
      return;
    }
    const reading = readResponse({ meta: { status, headers: { 'content-type': 'application/json' } }, body });
    const response =
      reading.kind === 'v1'
        ? reading.response
        : reading.kind === 'v0'
          ? { action_requests: reading.requests, active_runs: [], messages: [], finished_runs: {} }
          : undefined;
    if (!response) return;
    for (const action of request.actions) {
      const run = this.runs.get(canonical(action.run));
      const step = run?.history.findLast((s) => s.actNo === action.act_no);
      step?.actions.push({ action: action.action, index });
    }
    for (const message of response.messages) {
      const run = message.run === null ? undefined : this.runs.get(canonical(message.run));
      run?.history.at(-1)?.messages.push(message);
    }
    const abandoned = new Set(request.to_abandon.map(canonical));
    for (const [id, outcome] of Object.entries(response.finished_runs)) {
      const run = this.#run(id, index);
      run.status = 'finished';
      this.#unfinished.delete(run);
      run.outcome = outcome;
      run.endIndex = index;
      if (abandoned.has(canonical(id))) run.abandoned = true;
      this.#rate(run.id, outcome, index);
    }
    const asked = new Set<string>();
    for (const request of response.action_requests) {
      const run = this.#run(request.run, index);
      asked.add(run.id);
      const last = run.history.at(-1);
      if (!last || last.actNo !== request.act_no)
        run.history.push({
          actNo: request.act_no,
          percept: request.percept,
          askedAt: index,
          actions: [],
          messages: [],
        });
      run.steps = Math.max(run.steps, request.act_no + 1);
    }
    const active = new Set(response.active_runs.map(canonical));
    for (const run of this.#unfinished) {
      run.status = asked.has(run.id)
        ? 'outstanding'
        : active.has(run.id) || reading.kind === 'v0'
          ? 'active'
          : 'gone';
    }
  }

  #run(id: string, index: number): AisysRunRow & { history: AisysRunStep[] } {
    const key = canonical(id);
    let run = this.runs.get(key);
    if (!run) {
      this.runs.set(key, (run = { id: key, status: 'active', steps: 0, startIndex: index, history: [] }));
      this.#unfinished.add(run);
    }
    return run;
  }

  /** The server's rating after a finished run (`AisysServer`'s arithmetic). */
  #rate(run: string, outcome: JsonValue, index: number): void {
    const { minRunsForFullyEvaluated: window, ratingObjective, initialRating } = this.settings;
    const previous = this.series.at(-1);
    const value = typeof outcome === 'number' ? outcome : typeof outcome === 'boolean' ? Number(outcome) : 0;
    this.recent.push(value);
    if (this.recent.length > window) this.recent.shift();
    const totalRuns = (previous?.totalRuns ?? 0) + 1;
    const fullyEvaluated = (previous?.fullyEvaluated ?? false) || totalRuns >= window;
    const current = this.recent.reduce((sum, x) => sum + x, 0) / this.recent.length;
    const before = previous?.best ?? initialRating;
    const best = fullyEvaluated ? (ratingObjective === 'max' ? Math.max : Math.min)(before, current) : before;
    this.series.push({ run, outcome, totalRuns, current, best, fullyEvaluated, index });
  }
}

/** A run id as the server reads it (`"026"` is run 26). */
function canonical(run: string): string {
  return /^\s*\d+\s*$/.test(run) ? String(Number(run)) : run;
}

/** The settings the server uses for an environment, when Protoplay knows it. */
function settingsOf(env: string): AisysEnvSettings | undefined {
  const preset = findAisysEnvironment(env);
  if (!preset) return undefined;
  const envClass = AISYS_ENVIRONMENT_CLASSES.find((c) => c.id === preset.envClass);
  try {
    return envClass?.create(preset.config).settings;
  } catch {
    return undefined;
  }
}

/** Reads a transcript's exchanges into the views' runs, histories, ratings and HTTP log. */
export class AisysRunBook {
  readonly #agents = new Map<string, AgentBook>();
  readonly #exchanges: AisysExchangeRow[] = [];
  /** Requests waiting for their response, by exchange number. */
  readonly #pending = new Map<number, { row: AisysExchangeRow; t: number; request?: AisysRequest }>();
  readonly #settings: (env: string) => AisysEnvSettings | undefined;

  /** `settings`: the environment's settings by id (default: the ready-made environments'). */
  constructor(settings: (env: string) => AisysEnvSettings | undefined = settingsOf) {
    this.#settings = settings;
  }

  /** Reads the next messages of the transcript. */
  add(messages: readonly TranscriptMessage[]): void {
    for (const message of messages) this.#read(message);
  }

  #read(message: TranscriptMessage): void {
    const http = message.http;
    if (message.kind !== 'data' || !http) return;
    const { exchange: _exchange, ...meta } = http;
    const httpMessage: HttpMessage = { meta, ...bodyOf(message) };
    if (message.dir === 'c2s') {
      const row: AisysExchangeRow = {
        request: message.index,
        method: http.method ?? '?',
        path: http.path ?? '?',
        gist: 'waiting for the answer',
      };
      const channel = message.channel ?? aisysChannel(httpMessage);
      if (channel !== undefined) row.channel = channel;
      const reading = actPathEnvironment(http.path) !== undefined ? readRecordedRequest(message) : undefined;
      this.#exchanges.push(row);
      this.#pending.set(http.exchange, {
        row,
        t: message.t,
        ...(reading?.ok ? { request: reading.request } : {}),
      });
      return;
    }
    const pending = this.#pending.get(http.exchange);
    if (!pending) return;
    this.#pending.delete(http.exchange);
    const { row, request } = pending;
    row.response = message.index;
    row.status = http.status ?? 0;
    row.ms = Math.max(0, message.t - pending.t);
    row.gist = gistOf(readRecordedResponse(message));
    if (!row.channel) return;
    let book = this.#agents.get(row.channel);
    if (!book) {
      book = new AgentBook(row.channel, this.#settings(row.channel.slice(0, row.channel.indexOf('/'))));
      this.#agents.set(row.channel, book);
    }
    if (request) book.answer(request, httpMessage.body, row.status, message.index);
    else if (row.status !== 200) {
      book.exchanges++;
      book.lastError = { status: row.status, body: httpMessage.body, index: message.index };
    }
  }

  /** The agents, most exchanges first. */
  get channels(): string[] {
    return [...this.#agents.entries()].sort((a, b) => b[1].exchanges - a[1].exchanges).map(([c]) => c);
  }

  /** The overview of one agent (default: the one with most exchanges). */
  overview(channel?: string): AisysOverview {
    const channels = this.channels;
    const chosen = channel !== undefined && this.#agents.has(channel) ? channel : channels[0];
    const book = chosen !== undefined ? this.#agents.get(chosen) : undefined;
    const counts = { outstanding: 0, active: 0, finished: 0, gone: 0 };
    if (!book)
      return {
        channels,
        rows: [],
        counts,
        omittedFinished: 0,
        rating: new AgentBook('/', undefined).rating(),
        series: [],
        exchanges: this.#exchanges.length,
      };
    const unfinished: AisysRunRow[] = [];
    const finished: AisysRunRow[] = [];
    for (const { history: _history, ...row } of book.runs.values()) {
      counts[row.status]++;
      (row.status === 'finished' ? finished : unfinished).push(row);
    }
    const byId = (a: AisysRunRow, b: AisysRunRow) => Number(a.id) - Number(b.id);
    finished.sort((a, b) => (b.endIndex ?? 0) - (a.endIndex ?? 0));
    const kept = finished.slice(0, TABLE_FINISHED_RUNS);
    return {
      channels,
      channel: chosen,
      env: book.env,
      agent: book.agent,
      rows: [...unfinished.sort(byId), ...kept],
      counts,
      omittedFinished: finished.length - kept.length,
      rating: book.rating(),
      series: thinned(book.series),
      exchanges: this.#exchanges.length,
      ...(book.lastError ? { lastError: book.lastError } : {}),
    };
  }

  /** One run's history, or undefined when the agent has no such run. */
  run(id: string, channel?: string): AisysRunHistory | undefined {
    const book = this.#agents.get(channel ?? this.channels[0] ?? '');
    const run = book?.runs.get(canonical(id));
    if (!book || !run) return undefined;
    return {
      id: run.id,
      env: book.env,
      agent: book.agent,
      status: run.status,
      ...(run.outcome !== undefined ? { outcome: run.outcome } : {}),
      ...(run.abandoned ? { abandoned: true } : {}),
      steps: run.history,
    };
  }

  /** The HTTP exchanges from `from` on (at most `count`), and how many there are. */
  exchanges(from = 0, count = 100): { total: number; from: number; rows: AisysExchangeRow[] } {
    const total = this.#exchanges.length;
    const start = Math.max(0, Math.min(from < 0 ? total + from : from, total));
    return { total, from: start, rows: this.#exchanges.slice(start, start + Math.max(0, count)) };
  }
}

/** A response in a few words: the error's description, or what the answer asks and ends. */
function gistOf(reading: ResponseReading): string {
  switch (reading.kind) {
    case 'error':
      return `${reading.error.errorname}: ${reading.error.description}`;
    case 'html':
      return reading.title || 'an HTML page';
    case 'unreadable':
      return reading.problem;
    case 'v0':
      return `${reading.requests.length} action requests (version 0)`;
    case 'v1': {
      const { action_requests: asked, finished_runs: finished, messages } = reading.response;
      const parts = [`${asked.length} action request${asked.length === 1 ? '' : 's'}`];
      const ended = Object.keys(finished).length;
      if (ended) parts.push(`${ended} finished`);
      const errors = messages.filter((m) => m.type === 'error').length;
      if (errors) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
      return parts.join(', ');
    }
  }
}
