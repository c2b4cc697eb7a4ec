/**
 * What the side-by-side view of one seed shows: both policies' transcripts read by their protocol's reader
 * (the same summaries the live message log shows), lined up row by row, with the rows where the policies'
 * messages differ. A seed of several sessions (MASSim's two matches) is read one session at a time.
 *
 * The page reads and lines up in a worker (`SideBySideSessions`): a contest-size match takes seconds to
 * read. The transcripts go to the worker and the summaries come back in slices, each its own task, so the
 * page stays responsive; ending the worker cancels. `sideBySide` does the same work in the caller's thread.
 */
import {
  readTranscript,
  serveSideBySide,
  SIDE_BY_SIDE_SLICE,
  unpackRows,
  type FromSideBySideThread,
  type ToSideBySideThread,
} from '../core/evaluation/side-by-side-thread';
import {
  alignTranscripts,
  type AlignedRow,
  type TranscriptAlignment,
} from '../core/evaluation/transcript-alignment';
import type { Protocol } from '../core/protocols/contract';
import type { MessageSummary, SessionNote } from '../core/protocols/reading';
import type { Transcript, TranscriptMessage } from '../core/transcript/model';

/** One transcript as the view reads it. */
export interface ReadSide {
  transcript: Transcript;
  summaries: readonly MessageSummary[];
  messages: readonly TranscriptMessage[];
  notes: readonly SessionNote[];
}

/** Both sides of one session, lined up. */
export interface SideBySide {
  sides: [ReadSide, ReadSide];
  alignment: TranscriptAlignment;
}

function emptyTranscript(protocol: Protocol): Transcript {
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: protocol.id,
    startedAt: 0,
    meta: {},
    connections: [],
    messages: [],
    annotations: [],
  };
}

/**
 * Reads and lines up the `session`-th transcript of each side (an empty one where a side has none), in the
 * caller's thread.
 */
export function sideBySide(
  protocol: Protocol,
  transcripts: readonly [readonly Transcript[], readonly Transcript[]],
  session: number,
): SideBySide {
  const side = (transcript: Transcript): ReadSide => ({
    transcript,
    messages: transcript.messages,
    ...readTranscript(protocol, transcript),
  });
  const a = side(transcripts[0][session] ?? emptyTranscript(protocol));
  const b = side(transcripts[1][session] ?? emptyTranscript(protocol));
  return {
    sides: [a, b],
    alignment: alignTranscripts(a, b, protocol.evaluation?.policyDirection ?? 'c2s'),
  };
}

/** A thread that reads and lines up (a Web Worker on the page, a worker thread or this thread elsewhere). */
export interface SideBySideThread {
  post(message: ToSideBySideThread): void;
  listen(handlers: { message(message: FromSideBySideThread): void; exit(reason: string): void }): void;
  terminate(): void;
}

/** A Web Worker as a side-by-side thread. */
export function webWorkerSideBySideThread(worker: Worker): SideBySideThread {
  return {
    post: (message) => worker.postMessage(message),
    listen(handlers) {
      worker.addEventListener('message', (event: MessageEvent<FromSideBySideThread>) =>
        handlers.message(event.data),
      );
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        handlers.exit(event.message || 'the side-by-side worker failed');
      });
    },
    terminate: () => worker.terminate(),
  };
}

/**
 * The thread's work in this thread, each message cloned as a worker's would be and delivered in a task of
 * its own (for tests, and where there are no workers).
 */
export function inProcessSideBySideThread(): SideBySideThread {
  let toThread: ((message: ToSideBySideThread) => void) | undefined;
  let toOwner: ((message: FromSideBySideThread) => void) | undefined;
  let ended = false;
  serveSideBySide({
    post: (message) => {
      const copy = structuredClone(message);
      setTimeout(() => !ended && toOwner?.(copy), 0);
    },
    listen: (handler) => (toThread = handler),
  });
  return {
    post: (message) => {
      const copy = structuredClone(message);
      setTimeout(() => !ended && toThread?.(copy), 0);
    },
    listen: (handlers) => (toOwner = handlers.message),
    terminate: () => (ended = true),
  };
}

/** The reading was cancelled (`SideBySideSessions.cancel`). */
export class SideBySideCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'SideBySideCancelled';
  }
}

/** How far a reading has gone: messages handed to the worker, then messages read (of all of both sides). */
export interface SideBySideProgress {
  phase: 'sending' | 'reading';
  done: number;
  total: number;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Rows of a lining up unpacked per task when it arrives (about 13 ms of CPU on a loaded 2-core machine). */
const ROWS_PER_TASK = 10_000;

interface Job {
  session: number;
  summaries: [MessageSummary[], MessageSummary[]];
  progress?: (progress: SideBySideProgress) => void;
  resolve(read: SideBySide): void;
  reject(error: Error): void;
}

/**
 * Both sides of each session, read once each (reading is most of the cost: a long match has tens of
 * thousands of messages) in a worker, and only when asked for.
 */
export class SideBySideSessions {
  readonly #protocol: Protocol;
  readonly #transcripts: readonly [readonly Transcript[], readonly Transcript[]];
  readonly #spawn: () => SideBySideThread;
  readonly #read = new Map<number, SideBySide>();
  readonly #reading = new Map<number, Promise<SideBySide>>();
  #thread: SideBySideThread | undefined;
  /** Transcripts the current thread holds, by key. */
  readonly #sent = new Set<string>();
  readonly #jobs = new Map<number, Job>();
  #nextJob = 0;
  /** Bumped by `cancel`: work begun before stops at its next step. */
  #generation = 0;

  constructor(
    protocol: Protocol,
    transcripts: readonly [readonly Transcript[], readonly Transcript[]],
    spawn: () => SideBySideThread = inProcessSideBySideThread,
  ) {
    this.#protocol = protocol;
    this.#transcripts = transcripts;
    this.#spawn = spawn;
  }

  /** Sessions on the longer side. */
  get count(): number {
    return Math.max(this.#transcripts[0].length, this.#transcripts[1].length);
  }

  /** The session, when it has been read already. */
  readSoFar(session: number): SideBySide | undefined {
    return this.#read.get(session);
  }

  /** The `session`-th session of both sides, lined up. */
  session(session: number, progress?: (progress: SideBySideProgress) => void): Promise<SideBySide> {
    const read = this.#read.get(session);
    if (read) return Promise.resolve(read);
    let reading = this.#reading.get(session);
    if (!reading) {
      reading = this.#readSession(session, progress).finally(() => this.#reading.delete(session));
      this.#reading.set(session, reading);
    }
    return reading;
  }

  /** The first session (by position) where the two sides differ; 0 when none does. */
  async firstDiffering(progress?: (progress: SideBySideProgress, session: number) => void): Promise<number> {
    for (let session = 0; session < this.count; session++) {
      const read = await this.session(session, (p) => progress?.(p, session));
      if (read.alignment.differences.length > 0) return session;
    }
    return 0;
  }

  /** Stops what is being read (its promises reject with `SideBySideCancelled`); what was read stays. */
  cancel(): void {
    this.#generation++;
    this.#thread?.terminate();
    this.#thread = undefined;
    this.#sent.clear();
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    for (const job of jobs) job.reject(new SideBySideCancelled());
  }

  /** Ends the worker (the view closed). */
  dispose(): void {
    this.cancel();
  }

  #threadNow(): SideBySideThread {
    if (this.#thread) return this.#thread;
    const thread = this.#spawn();
    thread.listen({
      message: (message) => this.#onMessage(message),
      exit: (reason) => {
        if (this.#thread !== thread) return;
        this.#thread = undefined;
        this.#sent.clear();
        const jobs = [...this.#jobs.values()];
        this.#jobs.clear();
        for (const job of jobs) job.reject(new Error(reason));
      },
    });
    this.#thread = thread;
    return thread;
  }

  #onMessage(message: FromSideBySideThread): void {
    const job = this.#jobs.get(message.job);
    if (!job) return;
    if (message.kind === 'progress')
      job.progress?.({ phase: 'reading', done: message.done, total: message.total });
    else if (message.kind === 'summaries') {
      const into = job.summaries[message.side];
      for (const summary of message.summaries) into.push(summary);
    } else if (message.kind === 'failed') {
      this.#jobs.delete(message.job);
      job.reject(new Error(message.error));
    } else void this.#takeAligned(job, message);
  }

  /**
   * Takes a session's lining up in: its rows are unpacked a slice per task (a contest-size match has a
   * couple of hundred thousand), so the page keeps drawing and answering meanwhile. The job stays open
   * until then: cancelling meanwhile rejects it.
   */
  async #takeAligned(job: Job, message: Extract<FromSideBySideThread, { kind: 'aligned' }>): Promise<void> {
    const rows: AlignedRow[] = [];
    for (let from = 0; ; from += ROWS_PER_TASK) {
      unpackRows(message.rows, from, from + ROWS_PER_TASK, rows);
      if (rows.length >= message.rows.a.length) break;
      await nextTask();
      if (this.#jobs.get(message.job) !== job) return;
    }
    this.#jobs.delete(message.job);
    const side = (n: 0 | 1): ReadSide => {
      const transcript = this.#transcripts[n][job.session] ?? emptyTranscript(this.#protocol);
      return {
        transcript,
        messages: transcript.messages,
        summaries: job.summaries[n],
        notes: message.notes[n],
      };
    };
    const read: SideBySide = {
      sides: [side(0), side(1)],
      alignment: { rows, differences: message.differences },
    };
    this.#read.set(job.session, read);
    job.resolve(read);
  }

  async #readSession(
    session: number,
    progress?: (progress: SideBySideProgress) => void,
  ): Promise<SideBySide> {
    const generation = this.#generation;
    const sides = [this.#transcripts[0][session], this.#transcripts[1][session]] as const;
    const total = (sides[0]?.messages.length ?? 0) + (sides[1]?.messages.length ?? 0);
    const keys: [string | undefined, string | undefined] = [undefined, undefined];
    let sent = 0;
    const thread = this.#threadNow();
    const stillHere = () => {
      if (generation !== this.#generation) throw new SideBySideCancelled();
      if (this.#thread !== thread) throw new Error('the side-by-side worker stopped');
    };
    for (const n of [0, 1] as const) {
      const transcript = sides[n];
      if (!transcript) continue;
      const key = `${n}:${session}`;
      keys[n] = key;
      if (this.#sent.has(key)) {
        sent += transcript.messages.length;
        continue;
      }
      thread.post({ kind: 'transcript', key, transcript: { ...transcript, messages: [], annotations: [] } });
      // Annotations (a world's state per step, on some protocols) go with the messages they hang off.
      const annotations = [...transcript.annotations].sort((x, y) => x.index - y.index);
      let attached = 0;
      for (
        let k = 0;
        k < transcript.messages.length || attached < annotations.length;
        k += SIDE_BY_SIDE_SLICE
      ) {
        // Each slice is cloned in a task of its own: the page keeps drawing and answering in between.
        await nextTask();
        stillHere();
        const messages = transcript.messages.slice(k, k + SIDE_BY_SIDE_SLICE);
        const end = k + SIDE_BY_SIDE_SLICE;
        let until = attached;
        while (
          until < annotations.length &&
          until - attached < SIDE_BY_SIDE_SLICE &&
          (end >= transcript.messages.length || annotations[until]!.index < end)
        )
          until++;
        thread.post({ kind: 'messages', key, messages, annotations: annotations.slice(attached, until) });
        attached = until;
        sent += messages.length;
        progress?.({ phase: 'sending', done: sent, total });
      }
      this.#sent.add(key);
    }
    stillHere();
    return new Promise<SideBySide>((resolve, reject) => {
      const job = this.#nextJob++;
      this.#jobs.set(job, {
        session,
        summaries: [[], []],
        ...(progress ? { progress } : {}),
        resolve,
        reject,
      });
      thread.post({
        kind: 'align',
        job,
        protocol: this.#protocol.id,
        keys,
        policyDirection: this.#protocol.evaluation?.policyDirection ?? 'c2s',
      });
    });
  }
}
