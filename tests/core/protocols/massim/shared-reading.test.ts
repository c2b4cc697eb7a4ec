/**
 * A big MASSim recording opened in the session worker is read once for the views and the summary: the
 * views' reader takes each batch of messages as soon as it was validated (`TranscriptGrowth.share`), and
 * the summary counts its rounds from it. The summary and the views are the same as with a reader of each,
 * every server frame is parsed once, and the store compresses its text only once the file is read.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeBigMassimTimeline } from '../../../../bench/inspect/big-massim-timeline';
import { serverFrameFacts } from '../../../../src/core/protocols/massim/codec';
import { showMassimTranscript } from '../../../../src/core/protocols/massim/playground/shown-store';
import type { MassimNews } from '../../../../src/core/protocols/massim/reading';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import type { PlaygroundServices, SessionUpdate } from '../../../../src/core/protocols/session-contract';
import {
  readRecording,
  readRecordingInChunks,
  type ChunkedFile,
} from '../../../../src/core/session/open-recording';
import type { ImportSummary } from '../../../../src/core/protocols/session-contract';
import { recordingsRoot } from './recordings';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The file as the session worker hands it: its first bytes, then chunks, each in a later task. */
function chunked(bytes: Uint8Array, size: number): ChunkedFile {
  return {
    name: 'all.timeline.jsonl',
    size: bytes.length,
    start: bytes.subarray(0, 65536),
    chunks: (async function* () {
      for (let at = 0; at < bytes.length; at += size) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        yield bytes.slice(at, at + size);
      }
    })(),
  };
}

/** Everything the views were told, batches put together. */
interface ViewsSeen {
  rows: Record<string, unknown[]>;
  frames: unknown[];
  results: unknown[];
  stops: unknown[];
  resumed: unknown[];
  notes: unknown[];
  connections: unknown;
  agents: unknown;
  teams: unknown;
}

function foldNews(updates: readonly SessionUpdate[]): ViewsSeen {
  const seen: ViewsSeen = {
    rows: {},
    frames: [],
    results: [],
    stops: [],
    resumed: [],
    notes: [],
    connections: undefined,
    agents: undefined,
    teams: undefined,
  };
  for (const update of updates) {
    const news = update.views as MassimNews | undefined;
    if (!news) continue;
    for (const [key, values] of Object.entries(news.rows))
      if (Array.isArray(values)) (seen.rows[key] ??= []).push(...(values as unknown[]));
    seen.frames.splice(news.framesFrom, Infinity, ...news.frames);
    seen.results.splice(news.framesFrom, Infinity, ...news.results);
    seen.stops.push(...news.stops);
    seen.resumed.push(...news.resumed);
    seen.notes.push(...news.notes);
    seen.connections = news.connections ?? seen.connections;
    seen.agents = news.agents ?? seen.agents;
    seen.teams = news.teams ?? seen.teams;
  }
  return seen;
}

/**
 * Opens a timeline in chunks and shows it as the session worker does. Frames come only when asked for
 * (`frames()`), so the views' news wait for them as they would behind a busy page; `share: false` hides the
 * sharing from the runner, which then reads only at its frames (as before it existed).
 */
async function openAndShow(bytes: Uint8Array, { share }: { share: boolean }) {
  const opened = await readRecordingInChunks(chunked(bytes, 64 << 10), PROTOCOLS);
  if (!opened) throw new Error('the timeline was not read in chunks');
  const updates: SessionUpdate[] = [];
  const due: (() => void)[] = [];
  const services = {
    listener: {
      update(json: string, deferred?: string) {
        const update = JSON.parse(json) as SessionUpdate;
        if (deferred) Object.assign(update, JSON.parse(deferred));
        updates.push(update);
      },
    },
    nextFrame: (callback: () => void) => void due.push(callback),
  } as unknown as PlaygroundServices;
  const growing = share
    ? opened.growing
    : {
        get done() {
          return opened.growing.done;
        },
        onGrow: opened.growing.onGrow,
      };
  const session = showMassimTranscript(
    { transcript: opened.transcript, origin: 'imported', name: 'all.timeline.jsonl', growing },
    services,
  );
  const summary: ImportSummary = await opened.summary;
  /** Runs the frames due, and those they ask for, until none is left. */
  const frames = (): number => {
    let ran = 0;
    while (due.length > 0) {
      due.shift()!();
      ran++;
    }
    return ran;
  };
  // What the views could be answered about once the file is read, before any frame came.
  const lastBeforeFrames = await session.ask('message', [summary.messages - 1]);
  frames();
  return {
    summary,
    views: foldNews(updates),
    session,
    frames,
    lastBeforeFrames,
    transcript: opened.transcript,
  };
}

async function timeline(run: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(recordingsRoot, run, 'all.timeline.jsonl')));
}

/** A sound timeline of about `bytes` bytes: the basic run's first step repeated. */
async function bigTimeline(bytes: number): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'massim-shared-'));
  try {
    const path = join(dir, 'all.timeline.jsonl');
    const recorded = await readFile(join(recordingsRoot, 'basic', 'all.timeline.jsonl'), 'utf8');
    await writeBigMassimTimeline(recorded, path, bytes);
    return new Uint8Array(await readFile(path));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('a MASSim recording read once for the views and the summary', () => {
  it('sums up and shows the same as with a reader of each, on recordings with violations and several simulations', async () => {
    for (const run of ['probes', 'multisim', 'events', 'basic']) {
      const bytes = await timeline(run);
      const whole = readRecording([{ name: 'all.timeline.jsonl', bytes }], PROTOCOLS).summarise();
      const shared = await openAndShow(bytes, { share: true });
      const apart = await openAndShow(bytes, { share: false });
      expect(shared.summary, run).toEqual(whole);
      expect(apart.summary, run).toEqual(whole);
      expect(shared.views, run).toEqual(apart.views);
      expect(shared.views.rows.type?.length, run).toBe(whole.messages);
    }
    // The recordings hold what is compared: violations, and rounds of several simulations.
    const probes = await openAndShow(await timeline('probes'), { share: true });
    expect(probes.summary.violations.length).toBeGreaterThan(3);
    expect(probes.views.notes.length).toBeGreaterThan(3);
    const multisim = await openAndShow(await timeline('multisim'), { share: true });
    expect(multisim.summary.rounds).toBeGreaterThan(1);
  });

  it('parses each server frame once, however late the frames come', async () => {
    // More messages than the frame memo remembers (4,096), in many batches of the summary.
    const bytes = await bigTimeline(12e6);
    const parse = vi.spyOn(JSON, 'parse');
    const parsedRequests = () =>
      parse.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.startsWith('{"type":"request-action"'),
      ).length;
    // Nothing remembered from earlier tests (the same frames at the same indices would not be parsed).
    serverFrameFacts.resize(serverFrameFacts.capacity);
    const shared = await openAndShow(bytes, { share: true });
    const once = parsedRequests();
    parse.mockClear();
    serverFrameFacts.resize(serverFrameFacts.capacity);
    const apart = await openAndShow(bytes, { share: false });
    const twice = parsedRequests();
    const requests = shared.transcript.messages.filter((message) =>
      message.text?.startsWith('{"type":"request-action"'),
    ).length;
    expect(requests).toBeGreaterThan(5000);
    expect(shared.summary).toEqual(apart.summary);
    expect(shared.summary).toMatchObject({ violations: [], rounds: 1 });
    expect(shared.views).toEqual(apart.views);
    expect(once).toBe(requests);
    // A reader of its own behind the summary parses the frames the memo no longer holds again.
    expect(twice).toBeGreaterThan(requests * 1.5);
  });

  it('reads the views as the file is read, not at the frames, and compresses the store afterwards', async () => {
    const bytes = await bigTimeline(6e6);
    const shared = await openAndShow(bytes, { share: true });
    const apart = await openAndShow(bytes, { share: false });
    const last = shared.summary.messages - 1;
    // Once the file is read, the views' store holds every message already; without sharing it waits for
    // the next frame.
    expect(shared.lastBeforeFrames).toMatchObject({ index: last });
    expect(apart.lastBeforeFrames).toBeUndefined();
    // The store's text was compressed at the frames after; what it answers is the same.
    expect(shared.frames()).toBe(0);
    for (const index of [0, 1, Math.floor(last / 2), last])
      expect(await shared.session.ask('message', [index])).toEqual(shared.transcript.messages[index]);
    expect(await apart.session.ask('message', [last])).toEqual(await shared.session.ask('message', [last]));
  });
});
