/**
 * Replays a recorded rddlsim client over TCP: the client's chunks from a record file are sent as they
 * were, and after each the replay waits for as many server messages as the real server sent at that
 * point (and for its close, when it closed), so the answers can be compared message by message.
 */
import { connect } from 'node:net';
import { ServerStreamSplitter } from '../../../../src/core/protocols/rddlsim/framing';
import { readRecordFile } from '../../../../src/core/transcript/record-import';

/** One client chunk and what the real server answered before the client's next chunk. */
export interface ReplayStep {
  /** Bytes the client sent, or `close` when it closed its side. */
  send: Uint8Array | 'close';
  /** Milliseconds since the connection opened when the client sent it. */
  at: number;
  /** The real server's messages in answer (without framing bytes), as text. */
  expected: string[];
  /** The real server closed the connection in answer. */
  expectClose: boolean;
}

/** What our server answered at each step. */
export interface ReplayedStep {
  received: string[];
  closed: boolean;
}

const latin1 = new TextDecoder('latin1');

/** The steps of a record file (`*.transcript`). */
export function replayPlan(recordFile: Uint8Array): ReplayStep[] {
  const steps: ReplayStep[] = [];
  let answer: Uint8Array[] = [];
  const finishStep = () => {
    const step = steps.at(-1);
    if (!step) return;
    const splitter = new ServerStreamSplitter();
    const frames = answer.flatMap((chunk) => splitter.push(chunk));
    frames.push(...splitter.end());
    step.expected = frames.map((frame) => latin1.decode(frame.bytes));
    answer = [];
  };
  for (const record of readRecordFile(recordFile)) {
    if (record.dir === 'c2s') {
      if (record.kind === 'error') continue;
      finishStep();
      steps.push({
        send: record.kind === 'close' ? 'close' : record.bytes!,
        at: record.ms,
        expected: [],
        expectClose: false,
      });
    } else if (record.kind === 'data') answer.push(record.bytes!);
    else if (record.kind === 'close' && steps.length > 0) steps.at(-1)!.expectClose = true;
  }
  finishStep();
  return steps;
}

/** Options of a replay. */
export interface ReplayOptions {
  /** Wait until each chunk's recorded time before sending it (for clients that were slow on purpose). */
  keepTiming?: boolean;
  /** Longest wait for one step's answers (default 5 s); on expiry the step keeps what came. */
  stepTimeoutMs?: number;
}

/** Plays the steps against a server on 127.0.0.1:port. */
export async function replay(
  port: number,
  steps: readonly ReplayStep[],
  options: ReplayOptions = {},
): Promise<ReplayedStep[]> {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = Date.now();
  const splitter = new ServerStreamSplitter();
  const frames: string[] = [];
  let closed = false;
  let wake: () => void = () => undefined;
  socket.on('data', (chunk: Buffer) => {
    for (const frame of splitter.push(chunk)) frames.push(latin1.decode(frame.bytes));
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    for (const frame of splitter.end()) frames.push(latin1.decode(frame.bytes));
    closed = true;
    wake();
  });
  const results: ReplayedStep[] = [];
  for (const step of steps) {
    if (options.keepTiming) {
      const wait = step.at - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const before = frames.length;
    if (step.send === 'close') socket.end();
    else if (!closed) socket.write(step.send);
    const deadline = Date.now() + (options.stepTimeoutMs ?? 5000);
    const done = () => frames.length - before >= step.expected.length && (!step.expectClose || closed);
    while (!done() && !closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.max(1, deadline - Date.now()));
      });
    }
    results.push({ received: frames.slice(before), closed });
  }
  socket.destroy();
  return results;
}

/** A message with its time-left values blanked: the only values that depend on the wall clock. */
export function withoutClock(text: string): string {
  return text.replace(/<time-left>[^<]*<\/time-left>/g, '<time-left/>');
}

/** A message reduced to its element structure: names and nesting, no text. */
export function structureOf(text: string): string {
  return text
    .replace(/^<\?xml[^>]*\?>\s*/, '')
    .replace(/>[^<]+</g, '><')
    .replace(/>[^<]+$/, '>');
}
