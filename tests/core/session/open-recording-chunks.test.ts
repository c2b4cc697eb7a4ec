import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import {
  readRecording,
  readRecordingInChunks,
  type ChunkedFile,
  type ReadingProgress,
} from '../../../src/core/session/open-recording';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import type { Transcript } from '../../../src/core/transcript/model';
import { loadRecording } from '../protocols/rddlsim/recordings';
import { sharedPath } from '../../cli/shared-folder';

/** A real rddlsim session as its wire stream: each message ended by a NUL byte. */
function wireStream(name = 'sysadmin_inst_mdp__1'): Uint8Array {
  const texts = loadRecording(name)
    .messages.filter((m) => m.kind === 'data')
    .map((m) => `${m.text}\0`);
  return new TextEncoder().encode(texts.join(''));
}

/** The file as the worker hands it: its first bytes, then chunks of `size` bytes, each read when asked. */
function chunked(name: string, bytes: Uint8Array, size: number): ChunkedFile & { asked: () => number } {
  let asked = 0;
  return {
    name,
    size: bytes.length,
    start: bytes.subarray(0, 65536),
    asked: () => asked,
    chunks: (async function* () {
      for (let at = 0; at < bytes.length; at += size) {
        asked++;
        await new Promise((resolve) => setTimeout(resolve, 0));
        yield bytes.slice(at, at + size);
      }
    })(),
  };
}

describe('opening a big recording in chunks', () => {
  it('is on show after its first chunk, grows to the whole session, and sums up as a whole read', async () => {
    const bytes = wireStream();
    const whole = readRecording([{ name: 'session.log', bytes }], PROTOCOLS);
    const file = chunked('session.log', bytes, 4096);
    const progress: ReadingProgress[] = [];
    const opened = await readRecordingInChunks(file, PROTOCOLS, (read) => progress.push(read));
    expect(opened).toBeDefined();
    // Resolved long before the file is read: the views can show the first messages.
    expect(opened!.growing.done).toBe(false);
    expect(file.asked()).toBeLessThan(5);
    expect(opened!.transcript.messages.length).toBeGreaterThan(0);
    expect(opened!.transcript.messages.length).toBeLessThan(whole.transcript.messages.length);
    let grew = 0;
    opened!.growing.onGrow(() => grew++);
    const summary = await opened!.summary;
    expect(opened!.growing.done).toBe(true);
    expect(grew).toBeGreaterThan(10);
    expect(opened!.transcript).toEqual(whole.transcript);
    expect(summary).toEqual(whole.summarise());
    expect(summary).toMatchObject({ rounds: 3, violations: [], problems: [] });
    expect(progress.at(-1)).toEqual({
      bytes: bytes.length,
      total: bytes.length,
      messages: whole.transcript.messages.length,
    });
    expect(progress.map((p) => p.bytes)).toEqual([...progress.map((p) => p.bytes)].sort((a, b) => a - b));
  });

  it('starts what the views need (prepare) once the format is known, and reads on only when it is done', async () => {
    const bytes = wireStream();
    const whole = readRecording([{ name: 'session.log', bytes }], PROTOCOLS);
    for (const fails of [false, true]) {
      const file = chunked('session.log', bytes, 4096);
      let settle!: () => void;
      const prepared: string[] = [];
      const opened = await readRecordingInChunks(file, PROTOCOLS, undefined, {
        prepare: (protocol) => {
          prepared.push(protocol.id);
          return new Promise<void>((resolve, reject) => {
            settle = fails ? () => reject(new Error('no runner')) : resolve;
          });
        },
      });
      expect(prepared).toEqual(['rddlsim']);
      const asked = file.asked();
      // Nothing more is read while the views are being prepared...
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
      expect(file.asked()).toBe(asked);
      expect(opened!.growing.done).toBe(false);
      // ...and all of it once they are (or once preparing failed: the caller meets that failure itself).
      settle();
      const summary = await opened!.summary;
      expect(file.asked()).toBeGreaterThan(asked);
      expect(opened!.transcript).toEqual(whole.transcript);
      expect(summary).toEqual(whole.summarise());
    }
  });

  it('says why rounds ended early, as a whole read does, though its reading was loaded after the first chunk', async () => {
    // A real server's session whose first round it ended early: two non-default actions, one allowed.
    const bytes = wireStream('edge-cases/too_many_actions');
    const rddlsim = PROTOCOLS.find((protocol) => protocol.id === 'rddlsim')!;
    const create = await rddlsim.roundEnds!.load();
    const whole = readRecording([{ name: 'session.log', bytes }], PROTOCOLS).summarise(create);
    expect(whole.earlyRoundEnds).toEqual([
      {
        round: 1,
        index: expect.any(Number) as number,
        why: expect.stringContaining('2 non-default actions, but max-nondef-actions is 1') as string,
      },
    ]);
    let loaded = false;
    const opened = await readRecordingInChunks(chunked('session.log', bytes, 512), PROTOCOLS, undefined, {
      prepare: async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        loaded = true;
      },
      roundEnds: () => (loaded ? create : undefined),
    });
    const summary = await opened!.summary;
    expect(summary.earlyRoundEnds).toEqual(whole.earlyRoundEnds);
    expect(summary).toEqual(whole);
    // Without the reading (a protocol without one, or one that failed to load), nothing is said.
    expect(readRecording([{ name: 'session.log', bytes }], PROTOCOLS).summarise().earlyRoundEnds).toEqual([]);
  });

  it('finds the broken rules and a last message cut off, located, like a whole read', async () => {
    const text = new TextDecoder().decode(wireStream()).replace('<round-request', '<round-requesX');
    const bytes = new TextEncoder().encode(text.slice(0, text.length - 30));
    const whole = readRecording([{ name: 'cut.log', bytes }], PROTOCOLS).summarise();
    const opened = await readRecordingInChunks(chunked('cut.log', bytes, 5000), PROTOCOLS);
    const summary = await opened!.summary;
    expect(summary.violations[0]).toMatchObject({ index: 2 });
    expect(summary.problems).toContainEqual({
      file: 'cut.log',
      line: expect.any(Number) as number,
      byte: expect.any(Number) as number,
      message: expect.stringMatching(/ends in the middle/) as string,
    });
    expect(summary).toEqual(whole);
  });

  it('reads a MASSim timeline in chunks to the same messages as a whole read', async () => {
    const bytes = new Uint8Array(readFileSync(sharedPath('conformance/massim/basic/all.timeline.jsonl')));
    const whole = readRecording([{ name: 'all.timeline.jsonl', bytes }], PROTOCOLS);
    const opened = await readRecordingInChunks(chunked('all.timeline.jsonl', bytes, 8192), PROTOCOLS);
    const summary = await opened!.summary;
    expect(opened!.protocol.id).toBe(whole.protocol.id);
    expect(summary.messages).toBe(whole.transcript.messages.length);
    expect(summary.connections).toBe(whole.summarise().connections);
    expect(summary.violations).toEqual(whole.summarise().violations);
    expect(opened!.transcript.messages.map((m) => m.text)).toEqual(
      whole.transcript.messages.map((m) => m.text),
    );
  });

  it("lets a runner take over the summary's reading: each batch as soon as it is validated, the rounds its count", async () => {
    // Several sessions' streams one after the other, none ended but the last (one session that breaks
    // the rules, then): more messages than one batch.
    const one = new TextDecoder().decode(wireStream());
    const unended = one.slice(0, one.lastIndexOf('<?xml'));
    expect(one.slice(unended.length)).toContain('<session-end');
    const bytes = new TextEncoder().encode(unended.repeat(11) + one);
    const whole = readRecording([{ name: 'session.log', bytes }], PROTOCOLS).summarise();
    expect(whole.sessions).toBe(1);
    expect(whole.messages).toBeGreaterThan(2000);
    const opened = await readRecordingInChunks(chunked('session.log', bytes, 4096), PROTOCOLS);
    /** How many messages the transcript held at each call, and whether the file was read by then. */
    const reads: { messages: number; done: boolean }[] = [];
    opened!.growing.share!({
      read: () => reads.push({ messages: opened!.transcript.messages.length, done: opened!.growing.done }),
      rounds: () => 42,
    });
    const summary = await opened!.summary;
    // The same summary, but for the rounds, which are the runner's count.
    expect(summary).toEqual({ ...whole, rounds: 42 });
    // A call per batch of 1,000 messages while the file was read, and one at the end with all of them.
    expect(reads.length).toBe(Math.floor(whole.messages / 1000) + 1);
    expect(reads.slice(0, -1).every((read) => !read.done && read.messages % 1000 === 0)).toBe(true);
    expect(reads.at(-1)).toEqual({ messages: whole.messages, done: false });
  });

  /** A real rddlsim session as Protoplay writes it, a few times over, with notes and policy output. */
  function protoplayJson(copies: number, change: (t: Transcript) => Transcript = (t) => t): Uint8Array {
    const one = loadRecording('sysadmin_inst_mdp__1');
    const messages = Array.from({ length: copies }, () => one.messages)
      .flat()
      .map((message, index) => ({ ...message, index }));
    const annotations = messages
      .filter((message) => message.index % 7 === 0)
      .map((message) => ({
        index: message.index,
        type: message.index % 2 ? ('note' as const) : ('policy-log' as const),
        data: { text: `said at ${message.index}` },
      }));
    return new TextEncoder().encode(serialiseTranscript(change({ ...one, messages, annotations })));
  }

  it('reads Protoplay JSON laid out as Protoplay writes it in chunks, messages and annotations as a whole read', async () => {
    const bytes = protoplayJson(12);
    const whole = readRecording([{ name: 'session.json', bytes }], PROTOCOLS);
    expect(whole.transcript.messages.length).toBeGreaterThan(2000);
    const file = chunked('session.json', bytes, 4096);
    // Smaller than the size from which the page reads Protoplay JSON in chunks: left to the whole read.
    await expect(readRecordingInChunks(file, PROTOCOLS)).resolves.toBeUndefined();
    const opened = await readRecordingInChunks(chunked('session.json', bytes, 4096), PROTOCOLS, undefined, {
      jsonChunkedFromBytes: bytes.length,
    });
    expect(opened).toBeDefined();
    expect(opened!.growing.done).toBe(false);
    expect(opened!.transcript.messages.length).toBeLessThan(whole.transcript.messages.length);
    const summary = await opened!.summary;
    expect(opened!.transcript).toEqual(whole.transcript);
    const wholeSummary = whole.summarise();
    // One session read again and again: each copy's session-init after the first breaks a rule.
    expect(wholeSummary.violations.length).toBeGreaterThan(0);
    expect(summary).toEqual(wholeSummary);
  });

  it('does not check a Protoplay JSON transcript rebuilt without its wire traffic, as a whole read', async () => {
    const bytes = protoplayJson(12, (t) => ({ ...t, meta: { ...t.meta, wire: 'synthesised' } }));
    const whole = readRecording([{ name: 'rebuilt.json', bytes }], PROTOCOLS).summarise();
    const summary = await (await readRecordingInChunks(
      chunked('rebuilt.json', bytes, 4096),
      PROTOCOLS,
      undefined,
      { jsonChunkedFromBytes: 0 },
    ))!.summary;
    expect(whole.violations).toEqual([]);
    expect(summary).toEqual(whole);
  });

  it('keeps the messages of a Protoplay JSON file before a damaged line and says where it is', async () => {
    const text = new TextDecoder().decode(protoplayJson(12));
    const lines = text.split('\n');
    const damaged = lines.findIndex((line) => line.includes('"index":2500,'));
    lines[damaged] = lines[damaged]!.slice(0, 40);
    const bytes = new TextEncoder().encode(lines.join('\n'));
    const opened = await readRecordingInChunks(chunked('damaged.json', bytes, 4096), PROTOCOLS, undefined, {
      jsonChunkedFromBytes: 0,
    });
    const summary = await opened!.summary;
    expect(summary.messages).toBe(2500);
    expect(summary.problems).toContainEqual(
      expect.objectContaining({ file: 'damaged.json', line: damaged + 1 }),
    );
  });

  it('leaves formats that need their files whole to the whole read', async () => {
    const json = new TextEncoder().encode(
      JSON.stringify({ ...loadRecording('sysadmin_inst_mdp__1'), format: 'protoplay-transcript' }),
    );
    await expect(readRecordingInChunks(chunked('t.json', json, 4096), PROTOCOLS)).resolves.toBeUndefined();
    const notes = new TextEncoder().encode('hello\n'.repeat(20000));
    await expect(
      readRecordingInChunks(chunked('notes.txt', notes, 4096), PROTOCOLS),
    ).resolves.toBeUndefined();
  });
});
