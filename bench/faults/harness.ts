/**
 * Fault injection against `protoplay serve` of every protocol, run as a child process on loopback: peers
 * that close in the middle of a message, send one byte at a time, send 100 MiB without ending a message
 * (HTTP: a 100 MiB body and an endless chunked body; WebSocket: one oversized frame), never read, stall,
 * and send invalid UTF-8, one after another, while a well-behaved `connect` plays alongside. Each fault
 * says what the server must do (close the peer, or answer it) and which log line it must write, once.
 * The child's resident memory is read from /proc while it runs and its peak from the kernel when it
 * exits. Used by the test suite (tests/cli/serve-faults.test.ts) and by `npm run bench -- faults`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCommandLine } from '../../cli/command-line/dispatch';
import type { CliOutput } from '../../cli/command-line/io';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { TOOL_COMMANDS } from '../../cli/tools';
import type { Transcript } from '../../src/core/transcript/model';

const root = resolve(import.meta.dirname, '../..');
const BIN = join(root, 'cli/bin/protoplay.js');
const PEAK_MEMORY = pathToFileURL(join(root, 'bench/cli/peak-memory.mjs')).href;
const shared = (relative: string) => resolve(root, '../shared', relative);

/** How long a peer gets with no traffic before `serve` closes it, in the runs here (seconds). */
export const IDLE_SECONDS = 2;
const MiB = 1024 * 1024;

/** What a command run in this process printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

class Captured implements CliOutput {
  text = '';
  readonly isTTY = false;
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

/** Runs a command line in this process (the well-behaved peers). */
export async function runCli(args: string[], cwd: string): Promise<CliResult> {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCommandLine(args, PROTOCOL_COMMANDS, { io: { stdout, stderr, cwd } }, TOOL_COMMANDS);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Waits for a condition, checking every 20 ms, up to `ms` (then resolves false). */
export async function until(test: () => boolean, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 20));
  }
  return true;
}

/** A `serve` child process. */
export interface ServeChild {
  port: number;
  child: ChildProcess;
  /** Everything it printed so far, both streams. */
  output(): string;
  /** Resident memory now, in KiB (from /proc; 0 where there is none). */
  rssKb(): number;
  /** Resident memory right after it listened, in KiB. */
  baselineKb: number;
  /**
   * Ctrl-C unless it already ended (or, with `wait`, waits for it to end by itself); resolves with the exit
   * code and the peak resident memory.
   */
  stop(wait?: boolean): Promise<{ code: number; peakKb: number }>;
}

function readRssKb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Starts `protoplay serve <protocol> --port 0 ...args`; resolves once it listens. */
export async function startServe(protocol: string, args: string[], cwd: string): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    ['--import', PEAK_MEMORY, BIN, 'serve', protocol, '--port', '0', ...args],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number>((done) => child.once('exit', (code) => done(code ?? -1)));
  let ended = false;
  void exited.then(() => (ended = true));
  const listening = /listening on (?:ws:\/\/|http:\/\/)?(?:127\.0\.0\.1|localhost):(\d+)/;
  const ok = await until(() => listening.test(output) || ended, 60_000);
  const match = listening.exec(output);
  if (!ok || !match) {
    child.kill('SIGKILL');
    throw new Error(`serve ${protocol} did not start: ${output}`);
  }
  // aisys writes the agent's config file just after the listening line.
  await until(() => !args.includes('--agent-config') || output.includes('agent config written'));
  const baselineKb = readRssKb(child.pid);
  return {
    port: Number(match[1]),
    child,
    output: () => output,
    rssKb: () => readRssKb(child.pid),
    baselineKb,
    async stop(wait = false) {
      if (wait) await until(() => ended, 120_000);
      if (!ended) child.kill('SIGINT');
      const code = await exited;
      await new Promise((done) => setImmediate(done));
      const peakKb = Number(/protoplay-bench peak-rss-kb (\d+)/.exec(output)?.[1] ?? 0);
      return { code, peakKb };
    },
  };
}

/** How one faulty peer ended. */
export interface PeerEnd {
  /** The server closed (or reset) the connection before the peer did. */
  closedByServer: boolean;
  /** Bytes the server sent. */
  received: number;
  /** Bytes the peer managed to send. */
  sent: number;
  /** The first bytes the server sent, as latin1 (to check an HTTP status or a WebSocket close code). */
  head: string;
}

/**
 * Reads again after `logged()` (a peer that never read learns that the server closed it only by reading:
 * the FIN or reset waits behind what the server sent), then waits for the server's close.
 */
async function readAfterLogged(peer: RawPeer, logged: () => boolean): Promise<PeerEnd> {
  await until(() => logged() || peer.closed);
  peer.socket.resume();
  return peer.finish();
}

/** A raw TCP connection that keeps what the server sent and notices when the server closes it. */
class RawPeer {
  readonly socket: Socket;
  received = 0;
  sent = 0;
  head = '';
  closedByServer = false;
  closed = false;
  #weClosed = false;
  readonly ready: Promise<void>;

  constructor(port: number, { read = true } = {}) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.ready = new Promise((done, failed) => {
      this.socket.once('connect', () => done());
      this.socket.once('error', failed);
    });
    this.socket.on('error', () => {
      if (!this.#weClosed) this.closedByServer = true;
    });
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.head.length < 2048) this.head += chunk.toString('latin1').slice(0, 2048 - this.head.length);
    });
    this.socket.on('end', () => {
      if (!this.#weClosed) this.closedByServer = true;
      this.socket.end();
    });
    this.socket.on('close', () => {
      this.closed = true;
      if (!this.#weClosed) this.closedByServer = true;
    });
    if (!read) this.socket.pause();
  }

  /** Writes and waits until the bytes are handed to the kernel (false when the connection is gone). */
  write(bytes: Uint8Array | string): Promise<boolean> {
    if (this.closed || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((done) => {
      this.socket.write(bytes, (error) => {
        if (!error) this.sent += typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
        done(!error);
      });
    });
  }

  /** Writes one byte at a time, each after the previous one left. */
  async trickle(bytes: Uint8Array): Promise<void> {
    for (const byte of bytes) if (!(await this.write(new Uint8Array([byte])))) return;
  }

  /** Writes `total` bytes of `filler` in 1 MiB chunks, stopping as soon as the server closes. */
  async flood(total: number, filler = 0x61): Promise<void> {
    const chunk = Buffer.alloc(MiB, filler);
    while (this.sent < total && !this.closedByServer && !this.closed) if (!(await this.write(chunk))) return;
  }

  /** Closes our side (FIN), or resets. */
  close(reset = false): void {
    if (this.closed) return;
    this.#weClosed = !this.closedByServer;
    if (reset) this.socket.resetAndDestroy();
    else this.socket.end();
  }

  /** Waits for the server to close or for `test`, then destroys the socket. */
  async finish(test: () => boolean = () => false, ms = 60_000): Promise<PeerEnd> {
    await until(() => this.closed || this.closedByServer || test(), ms);
    const end = {
      closedByServer: this.closedByServer,
      received: this.received,
      sent: this.sent,
      head: this.head,
    };
    this.#weClosed = true;
    this.socket.destroy();
    return end;
  }
}

/** One misbehaving peer: what it does, and what the server must do about it. */
export interface Fault {
  name: string;
  /**
   * Runs the peer against the server's port, until the server reacted (or gave up waiting); `logged` tells
   * whether the server wrote the expected log line yet.
   */
  run(port: number, logged: () => boolean): Promise<PeerEnd>;
  /** What the server must have done. */
  expect: 'closed' | 'answered' | 'survived';
  /** The log line it must write once for this peer (none asked when absent). */
  log?: RegExp;
}

const nul = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const INVALID_UTF8 = Buffer.from([
  0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe,
]);

/** Opens a peer ready to speak the protocol (past the transport's handshake, if any). */
type OpenPeer = (port: number, options?: { read?: boolean }) => Promise<RawPeer>;

/** A raw TCP peer, connected. */
async function tcpPeer(port: number, options: { read?: boolean } = {}): Promise<RawPeer> {
  const peer = new RawPeer(port, options);
  await peer.ready;
  return peer;
}

/*
 * The fault catalogue: each kind of misbehaviour once, for any transport. A protocol's list below picks
 * the kinds and gives them its bytes and the log lines its server writes.
 */

/** Sends part of a message, then closes its side (FIN) or resets (RST); the server must carry on. */
function closesMidway(what: string, open: OpenPeer, part: Uint8Array | string, how: 'FIN' | 'RST'): Fault {
  return {
    name: `closes in the middle of ${what} (${how})`,
    expect: 'survived',
    async run(port) {
      const peer = await open(port);
      await peer.write(part);
      peer.close(how === 'RST');
      return peer.finish();
    },
  };
}

/** Sends `bytes` one byte at a time; the server must answer (`answered` tells when it has). */
function trickles(
  name: string,
  open: OpenPeer,
  bytes: Uint8Array,
  answered: (peer: RawPeer) => boolean,
): Fault {
  return {
    name,
    expect: 'answered',
    async run(port) {
      const peer = await open(port);
      await peer.trickle(bytes);
      return peer.finish(() => answered(peer));
    },
  };
}

/** Sends `head`, then 100 MiB of `filler` that never ends the message; the server must close it. */
function floods(name: string, log: RegExp, open: OpenPeer, head: Uint8Array | string, filler: number): Fault {
  return {
    name,
    expect: 'closed',
    log,
    async run(port) {
      const peer = await open(port);
      if (head.length > 0) await peer.write(head);
      await peer.flood(100 * MiB + peer.sent, filler);
      return peer.finish();
    },
  };
}

/** Sends `parts` and waits for the server's reaction (or for `done`, up to `ms`). */
function sends(
  fault: Omit<Fault, 'run'>,
  open: OpenPeer,
  parts: (Uint8Array | string)[],
  done?: (peer: RawPeer) => boolean,
  ms?: number,
): Fault {
  return {
    ...fault,
    async run(port) {
      const peer = await open(port);
      for (const part of parts) await peer.write(part);
      return peer.finish(done && (() => done(peer)), ms);
    },
  };
}

/** Sends requests without reading the answers (`pump` keeps writing); the server must close it. */
function neverReads(log: RegExp, open: OpenPeer, pump: (peer: RawPeer) => Promise<unknown>): Fault {
  return {
    name: 'sends requests and never reads',
    expect: 'closed',
    log,
    async run(port, logged) {
      const peer = await open(port, { read: false });
      // Writes block once the server stops reading; the peer then only waits.
      void pump(peer);
      return readAfterLogged(peer, logged);
    },
  };
}

/** Writes `payload` up to `times` times, stopping once the connection is gone. */
async function writeRepeatedly(peer: RawPeer, payload: Uint8Array | string, times: number): Promise<void> {
  for (let i = 0; i < times && !peer.closed; i++) if (!(await peer.write(payload))) return;
}

/** Connects and says nothing; the server must close it after the idle timeout. */
function staysSilent(open: OpenPeer): Fault {
  return {
    name: 'connects and stays silent',
    expect: 'closed',
    log: /no traffic for/,
    async run(port) {
      const peer = await open(port);
      return peer.finish();
    },
  };
}

/**
 * The faults of a protocol on raw TCP with 0-terminated messages: `first` is a valid first message,
 * `flood` valid requests sent without reading the answers, `tooLong` the line about a message too long,
 * `floodEnd` the line about the flooding peer's end.
 */
function tcpFaults(first: string, flood: Buffer, tooLong: RegExp, floodEnd: RegExp): Fault[] {
  const whole = nul(first);
  const half = whole.subarray(0, whole.length >> 1);
  return [
    closesMidway('a message', tcpPeer, half, 'FIN'),
    closesMidway('a message', tcpPeer, half, 'RST'),
    trickles('sends its first message one byte at a time', tcpPeer, whole, (peer) =>
      peer.head.includes('\0'),
    ),
    floods('sends 100 MiB without ending a message', tooLong, tcpPeer, '', 0x61),
    sends(
      { name: 'sends invalid UTF-8', expect: 'survived' },
      tcpPeer,
      [Buffer.concat([INVALID_UTF8, Buffer.from([0])])],
      (peer) => peer.received > 0,
      IDLE_SECONDS * 1000 * 5,
    ),
    neverReads(floodEnd, tcpPeer, (peer) => peer.write(flood)),
    staysSilent(tcpPeer),
  ];
}

const httpRequest = (method: string, path: string, headers: Record<string, string>, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;

/** The faults of an HTTP server (the aisysprojserver emulation); `path` is a path nobody plays on. */
function httpFaults(path: string): Fault[] {
  const json = { 'Content-Type': 'application/json' };
  const post = httpRequest('PUT', path, { ...json, 'Content-Length': '40' }, '{"action": "');
  const answered = /^HTTP\/1\.1 \d{3}/;
  return [
    closesMidway('a request', tcpPeer, post, 'FIN'),
    closesMidway('the request line', tcpPeer, 'GET /ac', 'RST'),
    trickles(
      'sends a request one byte at a time',
      tcpPeer,
      Buffer.from(httpRequest('GET', '/', {})),
      (peer) => /^HTTP\/1\.1 \d{3}[^]*\r\n\r\n/.test(peer.head),
    ),
    floods(
      'sends a 100 MiB body',
      /sent a body over/,
      tcpPeer,
      httpRequest('PUT', path, { ...json, 'Content-Length': String(100 * MiB) }),
      0x20,
    ),
    {
      name: 'sends an endless chunked body',
      expect: 'closed',
      log: /sent a body over/,
      async run(port) {
        const peer = await tcpPeer(port);
        await peer.write(httpRequest('PUT', path, { ...json, 'Transfer-Encoding': 'chunked' }));
        const chunk = Buffer.from(`100000\r\n${' '.repeat(MiB)}\r\n`);
        while (peer.sent < 100 * MiB && !peer.closedByServer && !peer.closed)
          if (!(await peer.write(chunk))) break;
        return peer.finish();
      },
    },
    sends(
      { name: 'sends a body of invalid UTF-8', expect: 'answered' },
      tcpPeer,
      [httpRequest('PUT', path, { ...json, 'Content-Length': String(INVALID_UTF8.length) }), INVALID_UTF8],
      (peer) => answered.test(peer.head),
    ),
    neverReads(/does not read|no traffic for/, tcpPeer, (peer) =>
      writeRepeatedly(peer, httpRequest('GET', '/', {}).repeat(2_000), 50),
    ),
    staysSilent(tcpPeer),
  ];
}

/** A client's WebSocket frame (masked, as a client must), FIN set. */
function wsFrame(opcode: number, payload: Uint8Array, declared = payload.length): Buffer {
  const head: number[] = [0x80 | opcode];
  if (declared < 126) head.push(0x80 | declared);
  else if (declared < 65536) head.push(0x80 | 126, declared >> 8, declared & 255);
  else {
    head.push(0x80 | 127, 0, 0, 0, 0);
    head.push((declared >>> 24) & 255, (declared >>> 16) & 255, (declared >>> 8) & 255, declared & 255);
  }
  // A zero mask: the payload goes as it is.
  return Buffer.concat([Buffer.from([...head, 0, 0, 0, 0]), payload]);
}

const WS_UPGRADE = httpRequest('GET', '/', {
  Upgrade: 'websocket',
  Connection: 'Upgrade',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
});

async function wsPeer(port: number, { read = true } = {}): Promise<RawPeer> {
  const peer = new RawPeer(port);
  await peer.ready;
  await peer.write(WS_UPGRADE);
  await until(() => peer.head.includes('\r\n\r\n') || peer.closed, 30_000);
  if (!read) peer.socket.pause();
  return peer;
}

/** The WebSocket close code the server sent, if any. */
export function wsCloseCode(head: string): number | undefined {
  const body = head.slice(head.indexOf('\r\n\r\n') + 4);
  for (let i = 0; i + 3 < body.length;) {
    const opcode = body.charCodeAt(i) & 15;
    const length = body.charCodeAt(i + 1) & 127;
    if (length >= 126) return undefined;
    if (opcode === 8) return (body.charCodeAt(i + 2) << 8) | body.charCodeAt(i + 3);
    i += 2 + length;
  }
  return undefined;
}

/**
 * The faults of a WebSocket server (the GAMA API): `hello` are valid first frames, `request` a valid
 * frame after it that gets an answer.
 */
function wsFaults(hello: string[], request: string): Fault[] {
  const whole = wsFrame(1, Buffer.from(request));
  const half = whole.subarray(0, whole.length >> 1);
  const greeting = Buffer.concat(hello.map((text) => wsFrame(1, Buffer.from(text))));
  return [
    closesMidway('a frame', wsPeer, half, 'FIN'),
    closesMidway('a frame', wsPeer, half, 'RST'),
    {
      name: 'sends its handshake and a frame one byte at a time',
      expect: 'answered',
      async run(port) {
        const peer = await tcpPeer(port);
        await peer.trickle(Buffer.from(WS_UPGRADE));
        await until(() => peer.head.includes('\r\n\r\n') || peer.closed, 30_000);
        const before = peer.received;
        await peer.trickle(Buffer.concat([greeting, whole]));
        return peer.finish(() => peer.received > before);
      },
    },
    floods(
      'sends a 100 MiB frame',
      /frame too large/,
      wsPeer,
      wsFrame(1, new Uint8Array(0), 100 * MiB),
      0x20,
    ),
    sends({ name: 'sends a text frame of invalid UTF-8', expect: 'closed', log: /invalid UTF-8/ }, wsPeer, [
      wsFrame(1, INVALID_UTF8),
    ]),
    neverReads(/does not read|requests wait for the policy|no traffic for/, wsPeer, async (peer) => {
      await peer.write(greeting);
      void writeRepeatedly(peer, Buffer.concat(Array.from({ length: 1_000 }, () => whole)), 40);
    }),
    staysSilent(wsPeer),
  ];
}

/** A well-behaved peer's session: the client transcripts it wrote, and how it ended. */
export interface GoodSession {
  results: CliResult[];
  transcripts: string[];
}

/** A protocol's `serve` under fault injection. */
export interface ServeTarget {
  protocol: string;
  transport: 'tcp' | 'http' | 'ws';
  /** Arguments of `serve` (after `--port 0`); `dir` holds its files. */
  serveArgs(dir: string): string[];
  /** Where `serve` writes its transcripts (a file or a folder). */
  served(dir: string): string;
  faults: Fault[];
  /**
   * Plays a well-behaved session alongside the faults. `faultsDone` resolves when every fault ran: a
   * MASSim match starts only when every team is in, so its second team joins then.
   */
  good(port: number, dir: string, faultsDone: Promise<void>): Promise<GoodSession>;
  /** Opens one short conversation (for the many-connections load); resolves true when it was answered. */
  touch(port: number): Promise<boolean>;
  /** Data messages are grouped by this to find a client's conversation among the server's. */
  groupBy: 'conn' | 'channel';
  /** `serve` exits by itself after the session (MASSim, after its match). */
  endsByItself?: boolean;
}

const limits = ['--idle-timeout', String(IDLE_SECONDS)];

const RDDLSIM_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const rddlsimSessionRequest = `${RDDLSIM_HEADER}<session-request><problem-name>sysadmin_inst_mdp__1</problem-name><client-name>peer</client-name></session-request>`;
const massimAuth = '{"type":"auth-request","content":{"user":"nobody","pw":"wrong"}}';

/** Opens a connection, sends `message`, resolves true once `answered(received)` holds, then closes. */
async function touchRaw(port: number, message: Uint8Array | string, answered: (head: string) => boolean) {
  const peer = new RawPeer(port);
  try {
    await peer.ready;
  } catch {
    return false;
  }
  await peer.write(message);
  const end = await peer.finish(() => answered(peer.head), 120_000);
  return answered(end.head);
}

/** Plays one well-behaved `connect <args>`, its transcript written in `dir`. */
async function connectOnce(dir: string, args: string[]): Promise<GoodSession> {
  const transcript = join(dir, 'good.json');
  const result = await runCli(['connect', ...args, '--transcript', transcript], dir);
  return { results: [result], transcripts: [transcript] };
}

/** Every `serve` under test. */
export const SERVE_TARGETS: readonly ServeTarget[] = [
  {
    protocol: 'rddlsim',
    transport: 'tcp',
    serveArgs: (dir) => [
      '--rddl-dir',
      shared('rddl/ippc2011'),
      '--rounds',
      '50',
      '--record',
      join(dir, 'served'),
      ...limits,
    ],
    served: (dir) => join(dir, 'served'),
    faults: tcpFaults(
      rddlsimSessionRequest,
      Buffer.concat([
        nul(rddlsimSessionRequest),
        ...Array.from({ length: 50 }, () => [
          nul(`${RDDLSIM_HEADER}<round-request/>`),
          ...Array.from({ length: 40 }, () => nul(`${RDDLSIM_HEADER}<actions/>`)),
        ]).flat(),
      ]),
      /exceeded \d+ bytes/,
      // The server answers at the pace the peer reads; a session that fits in the socket buffers ends.
      /no traffic for|finished 50 rounds/,
    ),
    groupBy: 'conn',
    good: (port, dir) =>
      connectOnce(dir, [
        'rddlsim',
        '--port',
        String(port),
        '--instance',
        'sysadmin_inst_mdp__1',
        '--policy',
        'random',
        '--rounds',
        '2',
      ]),
    touch: (port) => touchRaw(port, nul(rddlsimSessionRequest), (head) => head.includes('<session-init>')),
  },
  {
    protocol: 'massim',
    transport: 'tcp',
    serveArgs: (dir) => [
      '--agents',
      '2',
      '--steps',
      '10',
      '--grid',
      '20x20',
      '--seed',
      '5',
      '--wait-between-simulations',
      '0',
      '--record',
      join(dir, 'served'),
      ...limits,
    ],
    served: (dir) => join(dir, 'served'),
    endsByItself: true,
    faults: tcpFaults(
      massimAuth,
      Buffer.concat(Array.from({ length: 100_000 }, () => nul(massimAuth))),
      /without ending a message/,
      /login refused/,
    ),
    groupBy: 'conn',
    async good(port, dir, faultsDone) {
      const team = (name: string) =>
        runCli(
          [
            'connect',
            'massim',
            '--port',
            String(port),
            '--team',
            name,
            '--agents',
            '2',
            '--policy',
            'fetcher',
            '--timeout',
            '60',
            '--transcript',
            join(dir, `team-${name}.json`),
          ],
          dir,
        );
      const a = team('A');
      await faultsDone;
      const results = await Promise.all([a, team('B')]);
      return { results, transcripts: [join(dir, 'team-A.json'), join(dir, 'team-B.json')] };
    },
    touch: (port) => touchRaw(port, nul(massimAuth), (head) => head.includes('auth-response')),
  },
  {
    protocol: 'aisys',
    transport: 'http',
    serveArgs: (dir) => [
      '--env',
      'nim',
      '--agent',
      'ann',
      '--agent-config',
      join(dir, 'agent.json'),
      '--record',
      join(dir, 'served.json'),
      ...limits,
    ],
    served: (dir) => join(dir, 'served.json'),
    faults: httpFaults('/act/nim/mallory'),
    groupBy: 'channel',
    good: (_port, dir) =>
      connectOnce(dir, ['aisys', '--config', join(dir, 'agent.json'), '--policy', 'optimal', '--runs', '3']),
    touch: (port) =>
      touchRaw(port, httpRequest('GET', '/', { Connection: 'close' }), (head) =>
        /^HTTP\/1\.1 \d{3}/.test(head),
      ),
  },
  {
    protocol: 'gama',
    transport: 'ws',
    serveArgs: (dir) => ['--transcript', join(dir, 'served.json'), ...limits],
    served: (dir) => join(dir, 'served.json'),
    faults: wsFaults(
      ['{ "scenario": "C" }', '{ "id": "Scav. 1", "connect": true }'],
      '{ "id": "Scav. 1", "request": { "state": [ [ 0, 0, 0 ], [ 0, 1, 0 ], [ 0, 0, 0 ] ], "reward": 0 } }',
    ),
    groupBy: 'conn',
    good: (port, dir) =>
      connectOnce(dir, ['gama', '--url', `ws://127.0.0.1:${port}`, '--scenario', 'C', '--cycles', '3']),
    touch: (port) => touchRaw(port, WS_UPGRADE, (head) => head.startsWith('HTTP/1.1 101')),
  },
];

/** The transcripts `serve` wrote (one file, or every JSON file under a folder). */
export async function readServed(path: string): Promise<Transcript[]> {
  const files = (await stat(path)).isDirectory()
    ? (await readdir(path, { recursive: true }))
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(path, name))
    : [path];
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as Transcript));
}

/** The data messages of a transcript grouped by connection or channel, as `dir text` lines. */
export function conversations(transcript: Transcript, by: 'conn' | 'channel'): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const message of transcript.messages) {
    if (message.kind !== 'data') continue;
    const key = (by === 'channel' ? message.channel : message.conn) ?? message.conn;
    const group = groups.get(key) ?? [];
    group.push(`${message.dir} ${message.text}`);
    groups.set(key, group);
  }
  return groups;
}
