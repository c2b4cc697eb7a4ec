/**
 * "Continue in the playground": a recorded session played again against the protocol's emulated host.
 * The agent's side of the recording (its actions, requests or replies, whatever the protocol's client
 * sends) is fed to a fresh emulated host set up as the recording says (environment, seed, options), and
 * what the host answers is compared, message by message, with what the recording holds. The first message
 * that differs says where the emulator and the recorded server part ways (or where the recording was
 * changed); a recording the emulator reproduces says so, with how many messages agreed.
 *
 * A protocol offers this through `Protocol.replay` (loaded on first use); this file holds what every
 * protocol's replay shares: the answer's shape and the JSON differ. It names no protocol.
 */
import { ProtoplayError } from '../errors';
import type { Transcript, TranscriptMessage } from '../transcript/model';

/** An environment a recording may be played again in, when the recording does not say which. */
export interface ReplayEnvironmentChoice {
  id: string;
  label: string;
}

/** What the user chose for a recording that does not say everything it was played with. */
export interface ReplaySetup {
  /** An id from `ReplayPlan.choices`; used only when the recording does not name its environment. */
  environment?: string;
  /** Used only when the recording does not carry its seed. */
  seed?: number;
  /** A file the user gave where the plan offers one (`ReplayPlan.file`), e.g. a server configuration. */
  file?: { name: string; text: string };
}

/** What a recording says about how it was played, and what the user may choose where it says nothing. */
export interface ReplayPlan {
  /** The environment the recording names (a choice's id or its own description), if it names one. */
  environment?: string;
  /** The seed the recording carries, if it carries one. */
  seed?: number;
  /** Environments the user may pick when the recording names none (empty: nothing to choose). */
  choices: readonly ReplayEnvironmentChoice[];
  /**
   * A file the user may give instead of picking a choice (a server configuration), and what it is; given,
   * it wins over the choice.
   */
  file?: { label: string };
  /** Why the recording cannot be replayed at all (no agent messages, not this protocol's shape...). */
  impossible?: string;
}

/** Where the emulator's message first differs from the recorded one. */
export interface ReplayDifference {
  /** Transcript index of the recorded message (undefined: the recording has no more there). */
  recordedIndex: number | undefined;
  /** Position of the message among the compared ones (from 0). */
  position: number;
  /** The connection and, where the protocol has them, the agent channel of the conversation. */
  conn: string;
  channel?: string;
  /**
   * Where in the message they differ: a JSON path (`$.content.percept.score`), `$` for the whole
   * message (not JSON, or one side missing), or `status` for an HTTP status line.
   */
  path: string;
  /** The value at `path` on each side, as JSON text (undefined where that side has nothing). */
  recorded: string | undefined;
  emulated: string | undefined;
  /** Both whole messages, for reading side by side (undefined where that side sent nothing more). */
  recordedText: string | undefined;
  emulatedText: string | undefined;
}

/** What a replay found. */
export interface ReplayReport {
  /** The environment played, for people, and whether the recording named it or the user chose it. */
  environment: string;
  environmentFrom: 'recording' | 'chosen';
  seed: number;
  seedFrom: 'recording' | 'chosen' | 'default';
  /** The recorded messages the emulator's were compared with. */
  compared: number;
  /** How many of them differ (a missing message on either side counts as one). */
  differing: number;
  /** The first difference, in recording order; undefined when the emulator reproduced every message. */
  first?: ReplayDifference;
  /** Anything the user should know about how the replay was made (fields left out, options assumed). */
  notes: string[];
}

/** Who watches a long replay: how far it got, and whether it should stop. */
export interface ReplayWatch {
  /**
   * Called now and then (every few tens of milliseconds of work) with how many of the recording's
   * messages have been played again and how many there are.
   */
  progress?(done: number, total: number): void;
  /** Asked at the same moments: true stops the replay, which then throws `REPLAY_CANCELLED`. */
  cancelled?(): boolean;
}

/** The code of the error a replay stopped by its watcher throws. */
export const REPLAY_CANCELLED = 'replay.cancelled';

/**
 * Paces a replay's loop: `due()` is cheap and says when a pause is owed; `pause(done)` then reports the
 * progress, lets other work run (a cancel arriving in a worker, a progress line being written), and throws
 * when the watcher cancelled. A replay without a watcher never pauses.
 */
export class ReplayPacer {
  readonly #watch: ReplayWatch | undefined;
  readonly #total: number;
  readonly #every: number;
  /** The first check is due at once: the watcher hears the total and may cancel before any work. */
  #last = -Infinity;

  constructor(total: number, watch?: ReplayWatch, everyMs = 40) {
    this.#watch = watch && (watch.progress || watch.cancelled) ? watch : undefined;
    this.#total = total;
    this.#every = everyMs;
  }

  get total(): number {
    return this.#total;
  }

  due(): boolean {
    return this.#watch !== undefined && performance.now() - this.#last >= this.#every;
  }

  async pause(done: number): Promise<void> {
    this.#watch?.progress?.(Math.min(done, this.#total), this.#total);
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.#last = performance.now();
    this.check();
  }

  /** Throws when the watcher cancelled. */
  check(): void {
    if (this.#watch?.cancelled?.())
      throw new ProtoplayError(REPLAY_CANCELLED, 'the comparison was cancelled');
  }

  /** The last report: everything done. */
  finish(): void {
    this.#watch?.progress?.(this.#total, this.#total);
  }
}

/** A protocol's replay of its recordings against its emulated host. */
export interface TranscriptReplay {
  plan(transcript: Transcript): ReplayPlan;
  /**
   * Plays the recording again. Throws a `ProtoplayError` when it cannot (the plan's `impossible`, an
   * environment to choose that was not chosen, an unknown choice), or `REPLAY_CANCELLED` when `watch`
   * cancelled it.
   */
  run(transcript: Transcript, setup?: ReplaySetup, watch?: ReplayWatch): Promise<ReplayReport>;
}

/** How the page asks for a replay: the answer the session worker gives. */
export type ReplayAnswer =
  | { report: ReplayReport }
  /** The recording names no environment: the user picks one of these (and may give a seed). */
  | { choose: ReplayPlan }
  /** The user cancelled it. */
  | { cancelled: true }
  | { error: string };

/** Where two JSON values first differ, depth first in the recorded value's key order. */
export interface JsonDifference {
  path: string;
  recorded: unknown;
  emulated: unknown;
}

const MISSING = Symbol('missing');

/**
 * The first place two JSON values differ, or undefined when they are equal. `ignore(path, key)` leaves a
 * member out (a clock, a time stamp).
 */
export function firstJsonDifference(
  recorded: unknown,
  emulated: unknown,
  ignore: (key: string) => boolean = () => false,
  path = '$',
): JsonDifference | undefined {
  if (Object.is(recorded, emulated)) return undefined;
  const bothArrays = Array.isArray(recorded) && Array.isArray(emulated);
  if (bothArrays) {
    const length = Math.max(recorded.length, emulated.length);
    for (let i = 0; i < length; i++) {
      const a = i < recorded.length ? recorded[i] : MISSING;
      const b = i < emulated.length ? emulated[i] : MISSING;
      if (a === MISSING || b === MISSING) return missingAt(`${path}[${i}]`, a, b);
      const difference = firstJsonDifference(a, b, ignore, `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(emulated)) {
    const keys = [...Object.keys(recorded), ...Object.keys(emulated).filter((k) => !(k in recorded))];
    for (const key of keys) {
      if (ignore(key)) continue;
      const at = `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
      const a = key in recorded ? recorded[key] : MISSING;
      const b = key in emulated ? emulated[key] : MISSING;
      if (a === MISSING || b === MISSING) return missingAt(at, a, b);
      const difference = firstJsonDifference(a, b, ignore, at);
      if (difference) return difference;
    }
    return undefined;
  }
  return { path, recorded, emulated };
}

function missingAt(path: string, a: unknown, b: unknown): JsonDifference {
  return { path, recorded: a === MISSING ? undefined : a, emulated: b === MISSING ? undefined : b };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value of a difference as it is shown: JSON text, undefined for nothing. */
export function jsonText(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** One emulated message to compare: its text and, for HTTP, its status. */
export interface EmulatedMessage {
  text: string;
  status?: number;
}

/** How a protocol reads its messages for comparison. */
export interface ComparisonRules {
  /** Members left out wherever they are (a clock, a time stamp). */
  ignore?: (key: string) => boolean;
  /**
   * Puts a parsed message in the form it is compared in (lists whose order carries no meaning sorted);
   * called on both sides, on values it may change in place.
   */
  normalise?: (message: unknown) => void;
}

/**
 * Compares the recorded messages of one conversation with the emulator's, position by position: JSON
 * texts member by member (as `rules` say), other texts as they are, HTTP statuses first. Counts every
 * position that differs and keeps the first.
 */
export function compareConversation(
  recorded: readonly TranscriptMessage[],
  emulated: readonly EmulatedMessage[],
  where: { conn: string; channel?: string; positionFrom?: number },
  rules: ComparisonRules = {},
): { compared: number; differing: number; first?: ReplayDifference } {
  let differing = 0;
  let first: ReplayDifference | undefined;
  const length = Math.max(recorded.length, emulated.length);
  for (let i = 0; i < length; i++) {
    const message = recorded[i];
    const emulatedMessage = emulated[i];
    const difference = differenceOf(message, emulatedMessage, rules);
    if (!difference) continue;
    differing++;
    first ??= {
      recordedIndex: message?.index,
      position: (where.positionFrom ?? 0) + i,
      conn: message?.conn ?? where.conn,
      ...((message?.channel ?? where.channel) ? { channel: message?.channel ?? where.channel } : {}),
      ...difference,
      recordedText: message?.text,
      emulatedText: emulatedMessage?.text,
    };
  }
  return { compared: recorded.length, differing, ...(first ? { first } : {}) };
}

function differenceOf(
  recorded: TranscriptMessage | undefined,
  emulated: EmulatedMessage | undefined,
  rules: ComparisonRules,
): { path: string; recorded: string | undefined; emulated: string | undefined } | undefined {
  if (!recorded || !emulated) return { path: '$', recorded: recorded?.text, emulated: emulated?.text };
  const recordedStatus = recorded.http?.status;
  if (recordedStatus !== undefined && emulated.status !== undefined && recordedStatus !== emulated.status)
    return { path: 'status', recorded: String(recordedStatus), emulated: String(emulated.status) };
  const recordedText = recorded.text ?? '';
  if (recordedText === emulated.text) return undefined;
  const a = parseJson(recordedText);
  const b = parseJson(emulated.text);
  if (a === MISSING || b === MISSING) return { path: '$', recorded: recordedText, emulated: emulated.text };
  rules.normalise?.(a);
  rules.normalise?.(b);
  const difference = firstJsonDifference(a, b, rules.ignore);
  return (
    difference && {
      path: difference.path,
      recorded: jsonText(difference.recorded),
      emulated: jsonText(difference.emulated),
    }
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return MISSING;
  }
}

/** Adds up the comparisons of several conversations, keeping the first difference in recording order. */
export function mergeComparisons(
  parts: readonly { compared: number; differing: number; first?: ReplayDifference }[],
): { compared: number; differing: number; first?: ReplayDifference } {
  let compared = 0;
  let differing = 0;
  let first: ReplayDifference | undefined;
  for (const part of parts) {
    compared += part.compared;
    differing += part.differing;
    if (part.first && (!first || earlier(part.first, first))) first = part.first;
  }
  return { compared, differing, ...(first ? { first } : {}) };
}

/** A difference at a recorded message comes before one where the recording had run out. */
function earlier(a: ReplayDifference, b: ReplayDifference): boolean {
  if (a.recordedIndex === undefined) return false;
  if (b.recordedIndex === undefined) return true;
  return a.recordedIndex < b.recordedIndex;
}
