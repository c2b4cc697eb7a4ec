/**
 * The session worker: runs one session at a time (host, environment, and the policy in a nested policy
 * worker), or shows one opened transcript, and reports to the page in per-frame batches. A thin Comlink
 * shell: the protocol's runner, reached through its definition, does the work; this file gives it its
 * services (policy workers, storage, frames) and forwards the controls.
 */
import * as Comlink from 'comlink';
import { describeError } from '../src/core/errors';
import { PROTOCOLS, findProtocol } from '../src/core/protocols/registry';
import {
  type PlaygroundRunner,
  type PlaygroundServices,
  type PlaygroundSession,
  type SessionListener,
  type SessionUpdate,
} from '../src/core/protocols/session-contract';
import type { ImportInput, Protocol, RoundEndReading } from '../src/core/protocols/contract';
import { BridgeHolder } from '../src/core/session/bridge-holder';
import { isBridgedRunner } from '../src/core/session/bridge-route';
import {
  readRecording,
  readRecordingInChunks,
  type ReadingProgress,
} from '../src/core/session/open-recording';
import { answerReplay } from '../src/core/session/replay-answer';
import { detectFormats } from '../src/core/transcript/import';
import { exportTranscriptFiles } from '../src/core/session/transcript-exports';
import { parseTranscriptJson } from '../src/core/transcript/json-format';
import { setKeepWhileRunningMs, whenKeepersQuiet } from '../src/core/session/transcript-keeper';
import type {
  BridgeStatusListener,
  KeepingListener,
  ReadableFile,
  SessionWorkerApi,
} from '../src/core/session/worker-api';
import { scopeFromWorkerName, useStorageScope } from '../src/storage/storage-scope';
import {
  keepLastTranscript,
  utf8Length,
  keepTranscriptPart,
  MAX_STORED_TRANSCRIPT_BYTES,
} from '../src/storage/transcript-storage';
import { prewarmPolicyWorker, spawnPolicyWorker } from './policy-endpoint';

// The page's exercise, so a session's transcript is kept where the page looks for it.
useStorageScope(scopeFromWorkerName(self.name));

let current: PlaygroundSession | undefined;
/** Why the last store of a session's transcript failed (the page tells the learner), or undefined. */
let notKept: string | undefined;

/** Who hears how each store of a session's transcript went (the page's notice), if anyone. */
let keepingListener: KeepingListener | undefined;

/** Where the bridge connection's statuses go (the page's panel); replaced by each connect. */
let bridgeListener: BridgeStatusListener | undefined;

/** The page's one connection to `protoplay bridge`, kept here beside the sessions that use it. */
const bridge = new BridgeHolder({
  WebSocket,
  surroundings: {
    // A worker cannot tell whether its page is embedded; its origin is the page's.
    pageOrigin: self.location.origin,
    localNetworkPermission: async () => {
      for (const name of ['loopback-network', 'local-network-access']) {
        try {
          const state = await navigator.permissions.query({ name: name as PermissionName });
          return state.state;
        } catch {
          // This browser does not know the permission by that name.
        }
      }
      return undefined;
    },
  },
  onStatus: (status) => bridgeListener?.status(JSON.stringify(status)),
});

/**
 * From this size a file whose format reads it in chunks is shown while it is read: the first chunk is on
 * screen at once, however big the file. Smaller files are read whole (a few milliseconds).
 */
const CHUNKED_FROM_BYTES = 4 << 20;
/** What detection looks at: the first bytes of a file. */
const DETECTION_BYTES = 64 << 10;
/** The first chunk is small, so the first slice reaches the page soon; the others are larger. */
const FIRST_CHUNK_BYTES = 256 << 10;
const CHUNK_BYTES = 1 << 20;
/** The page hears how far a big file is read every so many bytes. */
const PROGRESS_BYTES = 1 << 20;

/** How long reading a file may go on before the worker's other tasks (its frames) get a turn. */
const YIELD_EVERY_MS = 12;

/** Resolves after the tasks already queued (a message to itself: no timer clamping). */
function otherTasks(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Counts the opened files: a file being read in chunks stops once another is opened. */
let openings = 0;
/** How long `prepareOpen` waits for a file (or a session) before it loads anything. */
const PREPARE_OPEN_AFTER_MS = 250;
/** Set by `cancelReplay`: the replay under way stops at its next pause. */
let replayCancelled = false;

/**
 * A Blob's bytes, chunk by chunk, while `wanted()` says they are. A Blob is read as a stream: Chromium
 * hands it over in pieces several times faster than it answers `slice().arrayBuffer()` for each megabyte.
 */
async function* chunksOf(file: ReadableFile, wanted: () => boolean): AsyncGenerator<Uint8Array> {
  if (file instanceof Blob) {
    const reader = file.stream().getReader();
    let yieldedAt = performance.now();
    try {
      while (wanted()) {
        const next = await reader.read();
        if (next.done) return;
        yield next.value;
        // A stream that keeps up answers each read at once (a microtask): without a task boundary now and
        // then, the frames that send the session's slices to the page would wait for the whole file.
        if (performance.now() - yieldedAt >= YIELD_EVERY_MS) {
          await otherTasks();
          yieldedAt = performance.now();
        }
      }
    } finally {
      // Stopped early (another file was opened) or at the end: the rest is not read.
      void reader.cancel().catch(() => undefined);
    }
    return;
  }
  let at = 0;
  let length = FIRST_CHUNK_BYTES;
  while (at < file.size && wanted()) {
    const end = Math.min(file.size, at + length);
    yield new Uint8Array(await file.slice(at, end).arrayBuffer());
    at = end;
    length = CHUNK_BYTES;
  }
}

/**
 * Progress as the page hears it: at most once per `PROGRESS_BYTES` read (a stream's pieces are small, and
 * each report is a task for the page), and always at the end.
 */
function throttledProgress(
  progress: ((bytes: number, total: number) => unknown) | undefined,
): (read: ReadingProgress) => void {
  let told = -Infinity;
  return (read) => {
    if (!progress || (read.bytes < read.total && read.bytes - told < PROGRESS_BYTES)) return;
    told = read.bytes;
    void progress(read.bytes, read.total);
  };
}

/** Dedicated workers have requestAnimationFrame in Chromium and Firefox; elsewhere a frame's worth of time. */
const animationFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(() => callback())
    : (callback) => setTimeout(callback, 16);

/**
 * The longest a live session's update waits for a frame: Chromium gives a dedicated worker that keeps busy
 * (a session at full speed, a GAMA batch) its animation frames rarely, and the page would see its moves and
 * its progress only once it is done.
 */
const FRAME_AT_MOST_MS = 100;

/** The next animation frame, or `FRAME_AT_MOST_MS` if that comes first: for live sessions. */
const liveFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (callback) => {
        let frame = 0;
        const timer = setTimeout(() => {
          cancelAnimationFrame(frame);
          callback();
        }, FRAME_AT_MOST_MS);
        frame = requestAnimationFrame(() => {
          clearTimeout(timer);
          callback();
        });
      }
    : animationFrame;

/** The first bytes of a file, enough to tell its format. */
async function firstBytes(content: Uint8Array | ReadableFile): Promise<Uint8Array> {
  return content instanceof Uint8Array
    ? content.subarray(0, DETECTION_BYTES)
    : new Uint8Array(await content.slice(0, Math.min(DETECTION_BYTES, content.size)).arrayBuffer());
}

/** The protocol's runner; throws a one-line reason when the protocol does not play in the page. */
async function runnerOf(protocol: Protocol): Promise<PlaygroundRunner> {
  const playground = protocol.playground;
  if (!playground) throw new Error(`${protocol.label} has no playground yet`);
  return playground.loadRunner();
}

/** Each protocol's round-end reading once loaded (`Protocol.roundEnds`), by protocol id. */
const roundEndReadings = new Map<string, () => RoundEndReading>();

/** Loads a protocol's round-end reading, if it has one; a failed load leaves its rounds unexplained. */
async function loadRoundEnds(protocol: Protocol): Promise<(() => RoundEndReading) | undefined> {
  if (!protocol.roundEnds) return undefined;
  const loaded = roundEndReadings.get(protocol.id);
  if (loaded) return loaded;
  try {
    const create = await protocol.roundEnds.load();
    roundEndReadings.set(protocol.id, create);
    return create;
  } catch {
    return undefined;
  }
}

/**
 * What a runner is given. A live session's updates wait for a frame at most `FRAME_AT_MOST_MS`; an opened
 * file's slices wait for a real frame (`shown`), so a big file's reading keeps the worker to itself and the
 * views catch up once it is read (measured: a 140 MB stream read in 4.9 s instead of 6.5 s when its slices
 * went out while it was read).
 */
function services(protocol: Protocol, listener: SessionListener, shown = false): PlaygroundServices {
  return {
    spawnPolicy: () => spawnPolicyWorker(protocol),
    listener,
    nextFrame: shown ? animationFrame : liveFrame,
    keepTranscript: async (json, how) => {
      const blob = new Blob([...json], { type: 'application/json' });
      notKept = await keepLastTranscript(blob, MAX_STORED_TRANSCRIPT_BYTES, how?.unfinished ?? false);
      void keepingListener?.kept(notKept ?? null);
    },
    keepTranscriptPart: async (part) => {
      const { outcome, reason } = await keepTranscriptPart(part, MAX_STORED_TRANSCRIPT_BYTES);
      // A part of a session replaced meanwhile says nothing about the transcript stored now.
      if (outcome === 'replaced') return outcome;
      notKept = reason;
      void keepingListener?.kept(notKept ?? null);
      return outcome;
    },
  };
}

/** Drops whatever is on show: a newer session or transcript takes the page. */
function replaceCurrent(): void {
  current?.abandon();
  current = undefined;
  untilStarted = undefined;
}

/**
 * The controls pressed while a session is starting (its runner loading, its policy compiling): the page
 * already shows it running, so Pause or Stop pressed then must not be lost. Applied in order once it has
 * started; undefined when no start is under way.
 */
let untilStarted: ((session: PlaygroundSession) => void)[] | undefined;

/** Applies a control to the session on show, or keeps it for the session being started. */
function control(action: (session: PlaygroundSession) => void): void {
  if (current) action(current);
  else untilStarted?.push(action);
}

/** The session has started: it becomes the one on show, and gets the controls pressed meanwhile. */
function started(session: PlaygroundSession, opening: number): void {
  // A newer start or import took the page meanwhile: this one is not shown.
  if (opening !== openings) return session.abandon();
  current = session;
  const pressed = untilStarted ?? [];
  untilStarted = undefined;
  for (const action of pressed) action(session);
}

function reportFailedStart(listener: SessionListener, error: unknown): void {
  const update: SessionUpdate = {
    messages: [],
    annotations: [],
    status: 'failed',
    error: `The session could not start: ${describeError(error)}`,
  };
  listener.update(JSON.stringify(update));
}

const api: SessionWorkerApi = {
  async start(config, listener) {
    const opening = ++openings;
    replaceCurrent();
    untilStarted = [];
    try {
      const protocol = findProtocol(config.protocol);
      if (!protocol) throw new Error(`there is no protocol '${config.protocol}'`);
      const runner = await runnerOf(protocol);
      started(await runner.start(config, services(protocol, listener)), opening);
    } catch (error) {
      if (opening === openings) untilStarted = undefined;
      reportFailedStart(listener, error);
    }
  },
  async startBridged(config, route, listener) {
    const opening = ++openings;
    replaceCurrent();
    untilStarted = [];
    try {
      const protocol = findProtocol(config.protocol);
      if (!protocol) throw new Error(`there is no protocol '${config.protocol}'`);
      const runner = await runnerOf(protocol);
      if (!isBridgedRunner(runner)) throw new Error(`${protocol.label} cannot play through the bridge yet`);
      started(await runner.startBridged(config, route, services(protocol, listener), bridge.access), opening);
    } catch (error) {
      if (opening === openings) untilStarted = undefined;
      reportFailedStart(listener, error);
    }
  },
  bridgeConnect(address, listener) {
    bridgeListener = listener;
    return bridge.connect(address);
  },
  bridgeDisconnect: () => bridge.disconnect(),
  async open(files, origin, listener, progress, { session = 1 } = {}) {
    const opening = ++openings;
    const name = files.length === 1 ? files[0]!.name : undefined;
    const big = files.length === 1 ? files[0]!.content : undefined;
    // Read in chunks, a file is one session: another one chosen is read whole (and said to be missing).
    if (big && !(big instanceof Uint8Array) && big.size >= CHUNKED_FROM_BYTES && session === 1) {
      let chunked;
      try {
        const start = new Uint8Array(await big.slice(0, DETECTION_BYTES).arrayBuffer());
        chunked = await readRecordingInChunks(
          { name: name!, size: big.size, start, chunks: chunksOf(big, () => opening === openings) },
          PROTOCOLS,
          throttledProgress(progress && ((bytes, total) => progress.progress(bytes, total))),
          // The runner's modules load while the first chunk is read, not behind the reading of the rest.
          {
            prepare: (protocol) => Promise.all([runnerOf(protocol), loadRoundEnds(protocol)]),
            roundEnds: (protocol) => roundEndReadings.get(protocol.id),
          },
        );
      } catch (error) {
        throw new Error(describeError(error), { cause: error });
      }
      if (chunked) {
        const runner = await runnerOf(chunked.protocol);
        replaceCurrent();
        // The session is on screen from its first chunk on; its summary comes once all of it is read.
        current = runner.show(
          { transcript: chunked.transcript, origin, name: name!, growing: chunked.growing },
          services(chunked.protocol, listener, true),
        );
        return chunked.summary;
      }
    }
    // The runner of the protocol the first bytes name loads while the files are read and parsed.
    const head = files[0] && (await firstBytes(files[0].content));
    const named = head && detectFormats([{ name: files[0]!.name, bytes: head }], PROTOCOLS)[0]?.protocol;
    const early = named ? findProtocol(named) : undefined;
    if (early?.playground) void runnerOf(early).catch(() => undefined);
    if (early) void loadRoundEnds(early);
    const inputs: ImportInput[] = await Promise.all(
      files.map(async (file) => ({
        name: file.name,
        bytes:
          file.content instanceof Uint8Array
            ? file.content
            : new Uint8Array(await file.content.slice(0, file.content.size).arrayBuffer()),
      })),
    );
    let opened;
    try {
      opened = readRecording(inputs, PROTOCOLS, { session });
    } catch (error) {
      throw new Error(describeError(error), { cause: error });
    }
    const runner = await runnerOf(opened.protocol);
    replaceCurrent();
    // The file's name for the status line: the one opened, or the one the session shown was read from.
    const shownName = name ?? (opened.files.length === 1 ? opened.files[0] : undefined);
    // The first slice of the session goes to the page before it is validated: a big recording is on
    // screen (log and charts) while its violations are still being looked for.
    current = runner.show(
      { transcript: opened.transcript, origin, ...(shownName ? { name: shownName } : {}) },
      services(opened.protocol, listener, true),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    return opened.summarise(await loadRoundEnds(opened.protocol));
  },
  pause: () => control((session) => session.pause()),
  resume: () => control((session) => session.resume()),
  step: () => control((session) => session.step()),
  stop: () => control((session) => session.stop()),
  setDelay: (ms) => control((session) => session.setDelay(ms)),
  decide: (choice) => current?.decide(choice),
  async prepareOpen(protocolId) {
    // The protocol on show only: loading the others too made a file of one of them picked soon after
    // slower, not faster (their loads still under way when it came). And not at once: a file handed over
    // within `PREPARE_OPEN_AFTER_MS` (a script's, no person's) loads only what it needs, undisturbed.
    const opening = openings;
    await new Promise((resolve) => setTimeout(resolve, PREPARE_OPEN_AFTER_MS));
    const protocol = findProtocol(protocolId);
    if (!protocol || opening !== openings) return;
    await Promise.all([
      protocol.playground && runnerOf(protocol),
      loadRoundEnds(protocol),
      protocol.roundEnds?.prepare?.(),
    ]).catch(() => undefined);
  },
  prewarm(protocolId) {
    const protocol = findProtocol(protocolId);
    if (protocol && protocol.playground) prewarmPolicyWorker(protocol);
  },
  ask: (question, args) => current?.ask(question, args),
  async replay(setup, listener) {
    replayCancelled = false;
    const pieces = current?.exportJson();
    if (!pieces) return { error: 'nothing is on show' };
    let transcript;
    try {
      transcript = parseTranscriptJson(pieces.join(''));
    } catch (error) {
      return { error: describeError(error) };
    }
    return answerReplay(transcript, PROTOCOLS, setup, {
      ...(listener ? { progress: (done: number, total: number) => void listener.progress(done, total) } : {}),
      cancelled: () => replayCancelled,
    });
  },
  cancelReplay() {
    replayCancelled = true;
  },
  exportJson() {
    const pieces = current?.exportJson();
    return pieces ? new Blob(pieces, { type: 'application/json' }) : undefined;
  },
  exportJsonToKeep(maxBytes) {
    const pieces = current?.exportJson();
    if (!pieces) return undefined;
    const bytes = utf8Length(pieces);
    return bytes > maxBytes ? { bytes } : new Blob(pieces, { type: 'application/json' });
  },
  exportFiles(format) {
    const pieces = current?.exportJson();
    if (!pieces) return [];
    const transcript = parseTranscriptJson(pieces.join(''));
    const protocol = findProtocol(transcript.protocol);
    if (!protocol) return [];
    return exportTranscriptFiles(transcript, protocol, format).map(({ fileName, type, content }) => ({
      fileName,
      file: new Blob([content as BlobPart], { type }),
    }));
  },
  whenKept: () => whenKeepersQuiet().then(() => notKept),
  watchKeeping(listener) {
    keepingListener = listener;
  },
  setKeepWhileRunning: (ms, whole) => setKeepWhileRunningMs(ms, whole),
  ping: () => true,
};

// The default endpoint is the worker global scope.
Comlink.expose(api);
