import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import {
  assembleJournal,
  nextPart,
  storeSource,
  transcriptSource,
  type JournalMark,
  type JournalOutcome,
  type JournalPart,
  type JournalSource,
} from '../../../src/core/session/transcript-journal';
import { TranscriptKeeper, whenKeepersQuiet } from '../../../src/core/session/transcript-keeper';
import { parseTranscriptJson, serialiseTranscript } from '../../../src/core/transcript/json-format';
import { TRANSCRIPT_FORMAT_VERSION, type Transcript } from '../../../src/core/transcript/model';
import { transcriptJson } from '../../../src/core/transcript/json-export';
import { TranscriptStore } from '../../../src/core/transcript/store/store';

const protocol = PROTOCOLS[0]!.id;

function emptyTranscript(): Transcript {
  return {
    format: 'protoplay-transcript',
    version: TRANSCRIPT_FORMAT_VERSION,
    protocol,
    startedAt: 1700000000000,
    meta: { origin: 'emulated' },
    connections: [{ id: 'c1', label: 'agent "one"' }],
    messages: [],
    annotations: [],
  };
}

/** Appends `n` messages (and an annotation every third one) to a transcript object. */
function record(transcript: Transcript, n: number): void {
  for (let i = 0; i < n; i++) {
    const index = transcript.messages.length;
    transcript.messages.push({
      index,
      conn: 'c1',
      dir: index % 2 ? 'c2s' : 's2c',
      t: index,
      kind: 'data',
      text: `<turn n="${index}">ünïcode\n</turn>`,
      framing: 'nul',
    });
    if (index % 3 === 0) transcript.annotations.push({ index, type: 'note', data: { index } });
  }
}

/** Stores parts like the browser's storage does: appended in order, assembled on reading. */
function partsStorage() {
  const parts: JournalPart[] = [];
  return {
    parts,
    keep(part: JournalPart): JournalOutcome {
      if (part.index === 0) parts.length = 0;
      else if (parts.length !== part.index || parts[0]!.session !== part.session) return 'replaced';
      parts.push(part);
      return 'kept';
    },
    read: () => assembleJournal(parts.at(-1)!, parts).join(''),
  };
}

describe('a transcript stored in parts', () => {
  it('reads back as the whole transcript, whatever the parts held', () => {
    const transcript = emptyTranscript();
    const source = transcriptSource(transcript);
    const storage = partsStorage();
    let mark: JournalMark | undefined;
    for (const grown of [0, 1, 5, 0, 7, 2]) {
      record(transcript, grown);
      const next = nextPart(source, 's', mark, true);
      expect(storage.keep(next.part)).toBe('kept');
      mark = next.mark;
      // Each part holds only what was recorded since the one before.
      expect(next.part.messages.split('\n').filter(Boolean)).toHaveLength(grown);
      expect(parseTranscriptJson(storage.read())).toEqual(transcript);
    }
    // Written like the whole file.
    expect(storage.read()).toBe(serialiseTranscript(transcript));
    expect(storage.parts).toHaveLength(6);
  });

  it('reads a transcript store the same way, as its whole JSON file', () => {
    const store = new TranscriptStore({ protocol, startedAt: 5, meta: { origin: 'emulated' } });
    store.addConnection('agent-1');
    const source = storeSource(store);
    const storage = partsStorage();
    let mark: JournalMark | undefined;
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 50; i++) {
        store.appendMessage({
          conn: 'agent-1',
          dir: 'c2s',
          t: round * 100 + i,
          kind: 'data',
          text: `{"step":${i}}`,
        });
        if (i % 10 === 0) store.annotate('note', { round, i });
      }
      const next = nextPart(source, 's', mark, round < 3);
      storage.keep(next.part);
      mark = next.mark;
      expect(storage.read()).toBe(transcriptJson(store));
    }
  });

  it('starts afresh from a mark that would skip messages', () => {
    const transcript = emptyTranscript();
    record(transcript, 4);
    const { part, mark } = nextPart(
      transcriptSource(transcript),
      's',
      { index: 3, messages: 9, annotations: 0 },
      true,
    );
    expect(part.index).toBe(0);
    expect(mark).toEqual({ index: 1, messages: 4, annotations: 2 });
  });
});

describe('a keeper that appends', () => {
  function appendingKeeper(source: JournalSource, keep: (part: JournalPart) => Promise<JournalOutcome>) {
    return new TranscriptKeeper({
      write: () => {
        throw new Error('an appending keeper never writes the whole transcript');
      },
      keep: () => Promise.reject(new Error('not used')),
      source,
      keepPart: keep,
      everyMs: 10,
    });
  }

  it('stores only what is new while running, one store at a time, and the end as finished', async () => {
    const transcript = emptyTranscript();
    const storage = partsStorage();
    let underWay = 0;
    let overlapped = false;
    const keeper = appendingKeeper(transcriptSource(transcript), async (part) => {
      overlapped ||= ++underWay > 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      underWay--;
      return storage.keep(part);
    });
    keeper.status('running');
    for (let i = 0; i < 5; i++) {
      record(transcript, 10);
      const before = storage.parts.length;
      await expect.poll(() => storage.parts.length, { timeout: 60_000 }).toBeGreaterThan(before);
    }
    keeper.status('finished');
    await whenKeepersQuiet();
    expect(overlapped).toBe(false);
    expect(storage.parts.at(-1)!.unfinished).toBe(false);
    expect(parseTranscriptJson(storage.read())).toEqual(transcript);
    // No message stored twice: the parts' lines add up to the transcript's messages.
    const lines = storage.parts.flatMap((part) => part.messages.split('\n').filter(Boolean));
    expect(lines).toHaveLength(50);
    keeper.dispose();
  });

  it('stores everything again after a store was refused, and nothing once disposed', async () => {
    const transcript = emptyTranscript();
    record(transcript, 3);
    const storage = partsStorage();
    let refuse = true;
    const indexes: number[] = [];
    const keeper = appendingKeeper(transcriptSource(transcript), (part) => {
      indexes.push(part.index);
      if (refuse) {
        storage.parts.length = 0;
        return Promise.resolve('not-kept');
      }
      return Promise.resolve(storage.keep(part));
    });
    keeper.status('paused');
    await whenKeepersQuiet();
    expect(storage.parts).toHaveLength(0);
    refuse = false;
    record(transcript, 2);
    keeper.status('paused');
    await whenKeepersQuiet();
    // The refused part is not followed: the next one holds every message.
    expect(indexes).toEqual([0, 0]);
    expect(parseTranscriptJson(storage.read())).toEqual(transcript);
    keeper.dispose();
    await keeper.keepNow();
    expect(indexes).toEqual([0, 0]);
  });

  it('stores nothing while the transcript is too big to keep', async () => {
    const transcript = emptyTranscript();
    record(transcript, 6);
    const parts: JournalPart[] = [];
    const keeper = appendingKeeper(transcriptSource(transcript, 5), (part) => {
      parts.push(part);
      return Promise.resolve('kept');
    });
    keeper.status('finished');
    await whenKeepersQuiet();
    await keeper.keepNow();
    expect(parts).toHaveLength(0);
    keeper.dispose();
  });
});
