/**
 * Test helpers for the MASSim commands over real loopback sockets: `serve massim` started in this process
 * on a free port, agents written by hand that speak raw 0-terminated JSON, and a check of recorded
 * transcripts with both MASSim machines.
 */
import { connect, type Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import { runCommandLine } from '../../cli/command-line/dispatch';
import type { CliOutput } from '../../cli/command-line/io';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { validate } from '../../src/core/protocols/machine';
import { massimClientMachine } from '../../src/core/protocols/massim/client-machine';
import { createMassimServerMachine } from '../../src/core/protocols/massim/server-machine';
import { parseTranscriptJson } from '../../src/core/transcript/json-format';
import type { Transcript, TranscriptMessage } from '../../src/core/transcript/model';
import type { CliResult } from './run-cli';

/** A command running in this process, with its output so far. */
export interface RunningCommand {
  /** Resolves when the command has ended. */
  done: Promise<CliResult>;
  stdout(): string;
  /** Ctrl-C. */
  interrupt(): void;
}

class WatchedOutput implements CliOutput {
  text = '';
  readonly isTTY = false;
  #watchers: (() => void)[] = [];
  write(text: string): boolean {
    this.text += text;
    for (const watch of this.#watchers) watch();
    return true;
  }
  /** Resolves with the first match of `pattern` in the output, now or later. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve) => {
      const check = () => {
        const match = pattern.exec(this.text);
        if (!match) return;
        this.#watchers = this.#watchers.filter((watch) => watch !== check);
        resolve(match);
      };
      this.#watchers.push(check);
      check();
    });
  }
}

/** Starts a command line in this process without waiting for its end. */
export function startInProcess(
  args: string[],
  cwd = process.cwd(),
): RunningCommand & {
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
} {
  const stdout = new WatchedOutput();
  const stderr = new WatchedOutput();
  const controller = new AbortController();
  const done = runCommandLine(args, PROTOCOL_COMMANDS, {
    io: { stdout, stderr, cwd },
    signal: controller.signal,
  }).then((code) => ({ code, stdout: stdout.text, stderr: stderr.text }));
  return {
    done,
    stdout: () => stdout.text,
    interrupt: () => controller.abort(),
    waitFor: (pattern) => stdout.waitFor(pattern),
  };
}

/** `serve massim` on a free loopback port; resolves once it listens. */
export async function startServe(
  args: string[],
): Promise<RunningCommand & { port: number; waitFor(pattern: RegExp): Promise<RegExpMatchArray> }> {
  const serve = startInProcess(['serve', 'massim', '--port', '0', ...args]);
  const listening = serve.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
  const match = await Promise.race([
    listening,
    serve.done.then((result) => {
      throw new Error(`serve ended before listening: ${result.stderr}`);
    }),
  ]);
  return { ...serve, port: Number(match[1]) };
}

/** A MASSim message as the tests read it. */
export interface Frame {
  type: string;
  content: Record<string, unknown> & {
    id?: number;
    step?: number;
    result?: string;
    percept?: Record<string, unknown>;
  };
}

/** An agent written by hand: raw frames over a real socket. */
export class RawAgent {
  readonly socket: Socket;
  readonly received: Frame[] = [];
  closed = false;
  #buffer = '';
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.#buffer += text;
      let end;
      while ((end = this.#buffer.indexOf('\0')) >= 0) {
        this.received.push(JSON.parse(this.#buffer.slice(0, end)) as Frame);
        this.#buffer = this.#buffer.slice(end + 1);
      }
      this.#wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    socket.on('error', () => undefined);
  }

  /** Opens a connection to the port. */
  static async open(port: number): Promise<RawAgent> {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawAgent(socket);
  }

  /** Sends a message object, or raw text as it is, followed by the 0 byte. */
  send(message: object | string): void {
    this.socket.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\0`);
  }

  /** Logs in and returns the auth-response result. */
  async login(user: string, password = '1'): Promise<string | undefined> {
    this.send({ type: 'auth-request', content: { user, pw: password } });
    return (await this.next('auth-response')).content.result;
  }

  /**
   * The next frame of a type (or of one of several types), skipping others, waiting for it; fails when the
   * connection closes first.
   */
  async next(type: string | readonly string[]): Promise<Frame> {
    const types = typeof type === 'string' ? [type] : type;
    for (;;) {
      const index = this.received.findIndex((frame) => types.includes(frame.type));
      if (index >= 0) return this.received.splice(0, index + 1).at(-1)!;
      if (this.closed) throw new Error(`the connection closed before a ${types.join(' or ')}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves when the server has closed the connection. */
  async untilClosed(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.socket.destroy();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Reads a transcript file. */
export async function readTranscript(path: string): Promise<Transcript> {
  return parseTranscriptJson(await readFile(path, 'utf8'));
}

/** Every violation the MASSim machines (both roles) find on each connection of a transcript. */
export function machineViolations(transcript: Transcript): string[] {
  const byConnection = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    const list = byConnection.get(message.conn) ?? [];
    list.push(message);
    byConnection.set(message.conn, list);
  }
  const found: string[] = [];
  for (const [conn, messages] of byConnection) {
    const violations = [
      ...validate(massimClientMachine, messages).violations,
      ...validate(createMassimServerMachine(), messages).violations,
    ];
    for (const violation of violations) found.push(`${conn}: ${violation.rule}: ${violation.message}`);
  }
  return found;
}

/** The data frames of one connection in one direction, parsed. */
export function framesOf(transcript: Transcript, conn: string, dir: 'c2s' | 's2c'): Frame[] {
  return transcript.messages
    .filter((message) => message.conn === conn && message.dir === dir && message.kind === 'data')
    .map((message) => JSON.parse(message.text ?? '') as Frame);
}
