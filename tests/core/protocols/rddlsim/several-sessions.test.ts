/**
 * A text of several rddlsim sessions one after the other (a log of several runs): the wire text and the
 * pyRDDLGym log are read as one session per run, whole or in chunks, in the page's chunked reading and in
 * `inspect`, and a session-request before the session ended stays a violation of the session it came in.
 */
import { describe, expect, it } from 'vitest';
import { inspectRecording, inspectStreamed } from '../../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import type { ImportProblem } from '../../../../src/core/protocols/contract';
import { streamRddlsimWireText } from '../../../../src/core/protocols/rddlsim/raw-import';
import { streamPyrddlgymLog } from '../../../../src/core/protocols/rddlsim/recording-pyrddlgym';
import {
  RddlsimSessionBoundaries,
  splitRddlsimSessions,
} from '../../../../src/core/protocols/rddlsim/session-boundaries';
import { readRecording, readRecordingInChunks } from '../../../../src/core/session/open-recording';
import { importRecording } from '../../../../src/core/transcript/import';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { loadRecording } from './recordings';

const encoder = new TextEncoder();

/** The data messages' texts of a recorded session, in order. */
const textsOf = (name: string) =>
  loadRecording(name)
    .messages.filter((m) => m.kind === 'data')
    .map((m) => m.text!);

const RUNS = ['sysadmin_inst_mdp__1', 'elevators_inst_mdp__1', 'game_of_life_inst_mdp__1'] as const;

/** The runs' messages as one wire text, each message ended by a NUL. */
const wireText = (runs: readonly string[] = RUNS) =>
  encoder.encode(runs.flatMap((run) => textsOf(run).map((text) => `${text}\0`)).join(''));

/** The runs' messages as one pyRDDLGym log (no declarations, `\n\n\n` after each). */
const pyrddlgymLog = (runs: readonly string[] = RUNS) =>
  encoder.encode(
    runs
      .flatMap((run) => textsOf(run).map((text) => `${text.replace(/^<\?xml[^>]*\?>\s*/, '')}\n\n\n`))
      .join(''),
  );

async function* chunksOf(all: Uint8Array, size: number) {
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

/** What a streaming reader hands a sink that takes sessions: each session's messages, and the problems. */
function readStreamed(
  stream: typeof streamRddlsimWireText,
  bytes: Uint8Array,
  size: number,
): { sessions: TranscriptMessage[][]; problems: ImportProblem[] } {
  const sessions: TranscriptMessage[][] = [[]];
  const problems: ImportProblem[] = [];
  const reader = stream('runs.log', {
    message: (message) => sessions[sessions.length - 1]!.push(message),
    problem: (problem) => problems.push(problem),
    session: () => void sessions.push([]),
  });
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.slice(at, at + size));
  reader.end();
  return { sessions, problems };
}

describe('a text of several rddlsim sessions', () => {
  it('is read as one session per run, each numbered from 0 on its own connection', () => {
    const result = importRecording([{ name: 'runs.log', bytes: wireText() }], PROTOCOLS);
    expect(result.format).toBe('rddlsim-wire-text');
    expect(result.problems).toEqual([]);
    expect(result.transcripts).toHaveLength(RUNS.length);
    result.transcripts.forEach((transcript, i) => {
      expect(transcript.messages.map((m) => m.text)).toEqual(textsOf(RUNS[i]!));
      expect(transcript.messages.map((m) => m.index)).toEqual(transcript.messages.map((_, at) => at));
      expect(new Set(transcript.messages.map((m) => m.conn))).toEqual(new Set([`session-${i + 1}`]));
      expect(transcript.connections).toEqual([{ id: `session-${i + 1}`, label: `session ${i + 1}` }]);
    });
    expect(result.sources).toEqual(RUNS.map(() => ['runs.log']));
  });

  it('inspects as that many sessions, each with its own rounds and rewards and no violation', () => {
    const joined = inspectRecording([{ name: 'runs.log', bytes: wireText() }], PROTOCOLS);
    expect(joined.sessions).toHaveLength(RUNS.length);
    RUNS.forEach((run, i) => {
      const alone = inspectRecording([{ name: `${run}.log`, bytes: wireText([run]) }], PROTOCOLS);
      expect(alone.sessions).toHaveLength(1);
      const { session: _, files: __, ...figures } = alone.sessions[0]!;
      expect(joined.sessions[i]).toEqual({ ...figures, session: i + 1, files: ['runs.log'] });
      expect(figures.violations).toEqual([]);
      expect(figures.rounds.length).toBeGreaterThan(0);
    });
  });

  it('gives the same sessions and problems read in chunks of any size as read whole', () => {
    // A log's own line between two runs is skipped and reported wherever the chunks cut.
    const text = new TextDecoder().decode(wireText());
    const cut = text.indexOf('<session-request', 10);
    const bytes = encoder.encode(`${text.slice(0, cut)}\n12:00:01 next run\n${text.slice(cut)}`);
    const whole = importRecording([{ name: 'runs.log', bytes }], PROTOCOLS);
    expect(whole.transcripts).toHaveLength(RUNS.length);
    expect(whole.problems).toHaveLength(1);
    expect(whole.problems[0]!.message).toContain('next run');
    for (const size of [1, 13, 4096, bytes.length]) {
      const streamed = readStreamed(streamRddlsimWireText, bytes, size);
      expect(streamed.sessions).toEqual(whole.transcripts.map((t) => t.messages));
      expect(streamed.problems).toEqual(whole.problems);
    }
  });

  it('keeps a session-request before the session ended in that session, as a violation', () => {
    const [first, second] = [textsOf(RUNS[0]), textsOf(RUNS[1])];
    expect(first.at(-1)).toContain('<session-end');
    // The first run cut before its session-end: the second run's session-request breaks its rules.
    const texts = [...first.slice(0, -1), ...second];
    const bytes = encoder.encode(texts.map((text) => `${text}\0`).join(''));
    const report = inspectRecording([{ name: 'cut.log', bytes }], PROTOCOLS);
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]!.messages).toBe(texts.length);
    expect(report.sessions[0]!.violations.map((v) => v.index)).toContain(first.length - 1);
  });

  it('streams to a sink without sessions as one session, as before', () => {
    const messages: TranscriptMessage[] = [];
    const reader = streamRddlsimWireText('runs.log', {
      message: (message) => messages.push(message),
      problem: () => undefined,
    });
    reader.push(wireText());
    reader.end();
    const count = RUNS.reduce((sum, run) => sum + textsOf(run).length, 0);
    expect(messages.map((m) => m.index)).toEqual([...Array(count).keys()]);
    expect(new Set(messages.map((m) => m.conn))).toEqual(new Set(['session-1']));
  });

  it('is inspected streamed as it is inspected whole', async () => {
    for (const bytes of [wireText(), pyrddlgymLog()]) {
      const { transcripts: _, ...whole } = inspectRecording([{ name: 'runs.log', bytes }], PROTOCOLS);
      const streamed = await inspectStreamed(
        [{ name: 'runs.log', start: bytes.subarray(0, 4096), chunks: chunksOf(bytes, 1000) }],
        PROTOCOLS,
      );
      expect(whole.sessions).toHaveLength(RUNS.length);
      expect(streamed).toEqual({ ...whole, transcripts: [] });
    }
  });

  it('as a pyRDDLGym log, is read as one session per run, whole and in chunks alike', () => {
    const bytes = pyrddlgymLog();
    const whole = importRecording([{ name: 'runs.log', bytes }], PROTOCOLS);
    expect(whole.format).toBe('rddlsim-pyrddlgym-stream');
    expect(whole.transcripts).toHaveLength(RUNS.length);
    whole.transcripts.forEach((transcript, i) => {
      expect(transcript.messages).toHaveLength(textsOf(RUNS[i]!).length);
      expect(transcript.connections).toEqual([{ id: `session-${i + 1}`, label: `session ${i + 1}` }]);
    });
    for (const size of [7, 4096]) {
      const streamed = readStreamed(streamPyrddlgymLog, bytes, size);
      expect(streamed.sessions).toEqual(whole.transcripts.map((t) => t.messages));
    }
  });

  it("opens in the page's chunked reading with the first run shown and every run listed", async () => {
    const bytes = wireText();
    const whole = readRecording([{ name: 'runs.log', bytes }], PROTOCOLS);
    const opened = await readRecordingInChunks(
      {
        name: 'runs.log',
        size: bytes.length,
        start: bytes.subarray(0, 65536),
        chunks: chunksOf(bytes, 4096),
      },
      PROTOCOLS,
    );
    const summary = await opened!.summary;
    expect(opened!.transcript.messages).toEqual(whole.transcript.messages);
    expect(summary).toEqual(whole.summarise());
    expect(summary.sessions).toBe(RUNS.length);
    expect(summary.sessionList.map((s) => s.messages)).toEqual(RUNS.map((run) => textsOf(run).length));
    // Another run chosen is read whole.
    const third = readRecording([{ name: 'runs.log', bytes }], PROTOCOLS, { session: 3 });
    expect(third.transcript.messages.map((m) => m.text)).toEqual(textsOf(RUNS[2]));
    expect(third.summarise()).toMatchObject({ shown: 3, violations: [] });
  });

  it('has its boundaries only at a session-request after a session-end', () => {
    const boundaries = new RddlsimSessionBoundaries();
    const steps: [TranscriptMessage['dir'], string][] = [
      ['c2s', 'session-request'],
      ['s2c', 'session-init'],
      ['c2s', 'session-request'],
      ['s2c', 'session-end'],
      ['c2s', 'round-request'],
      ['c2s', 'session-request'],
      ['s2c', 'session-end'],
      ['s2c', 'session-request'],
    ];
    expect(steps.map(([dir, root]) => boundaries.opens(dir, root))).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(boundaries.conn).toBe('session-2');
    const split = splitRddlsimSessions(steps.map(([dir, root]) => ({ dir, text: `<${root}/>` })));
    expect(split.map((session) => session.length)).toEqual([5, 3]);
  });
});
