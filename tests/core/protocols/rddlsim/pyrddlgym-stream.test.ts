import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormats, importRecording } from '../../../../src/core/transcript/import';
import { inspectRecording } from '../../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import {
  rddlsimPyrddlgymStreamFormat,
  TerminatorSplitter,
} from '../../../../src/core/protocols/rddlsim/recording-pyrddlgym';
import type { ImportInput } from '../../../../src/core/protocols/contract';
import { loadRecording } from './recordings';

const encoder = new TextEncoder();
const input = (name: string, content: string): ImportInput => ({ name, bytes: encoder.encode(content) });
const handWritten = readFileSync(resolve('tests/data/pyrddlgym/session.log'), 'utf8');

/** A real rddlsim session re-sent the way pyRDDLGym frames messages: no declaration, `\n\n\n` after each. */
function asPyrddlgym(name: string) {
  const recorded = loadRecording(name);
  const texts = recorded.messages
    .filter((m) => m.kind === 'data')
    .map((m) => ({
      dir: m.dir,
      text: m.text!.replace(/^<\?xml[^>]*\?>\s*/, ''),
    }));
  const stream = (dir: string) =>
    texts
      .filter((m) => m.dir === dir)
      .map((m) => `${m.text}\n\n\n`)
      .join('');
  return { recorded, texts, c2s: stream('c2s'), s2c: stream('s2c') };
}

describe("pyRDDLGym's \\n\\n\\n-separated rddlsim streams", () => {
  it('splits at every terminator, whatever the chunking, with the line each message starts on', () => {
    const text = '<a/>\n\n\n\n<b>\nx</b>\n\n\n<c/>';
    const bytes = encoder.encode(text);
    for (const size of [1, 2, 3, 5, bytes.length]) {
      const splitter = new TerminatorSplitter();
      const pieces = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(...splitter.push(bytes.slice(i, i + size)));
      pieces.push(...splitter.end());
      expect(pieces.map((p) => [new TextDecoder().decode(p.bytes), p.line, p.terminated])).toEqual([
        ['<a/>', 1, true],
        ['<b>\nx</b>', 5, true],
        ['<c/>', 9, false],
      ]);
    }
  });

  it('detects a hand-written pyRDDLGym session above the NUL formats, and names where pyRDDLGym differs from rddlsim', () => {
    const file = input('session.log', handWritten);
    const [best, next] = detectFormats([file], PROTOCOLS);
    expect(best).toMatchObject({ protocol: 'rddlsim', format: 'rddlsim-pyrddlgym-stream', confidence: 0.85 });
    expect(next!.confidence).toBeLessThan(best!.confidence);
    const report = inspectRecording([file], PROTOCOLS);
    expect(report.problems).toEqual([]);
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]!.messages).toBe(10);
    // pyRDDLGym's server says <rounds-left> where rddlsim says <round-left>, and ends a round one turn
    // early while counting the horizon in turns-used: the validator shows both.
    expect(report.sessions[0]!.unreadable).toEqual([
      { index: 3, reason: expect.stringContaining('<round-init> has no <round-left>') },
    ]);
    expect(report.sessions[0]!.violations.map((v) => v.rule)).toContain('rddlsim.round-end.turns-used');
    const [transcript] = report.transcripts;
    expect(transcript!.messages.map((m) => m.dir).join(' ')).toBe('c2s s2c c2s s2c s2c c2s s2c c2s s2c s2c');
    expect(transcript!.meta.messageTerminator).toBe('\n\n\n');
  });

  it('reads a real session re-framed as pyRDDLGym streams: the same messages in the same order', () => {
    const { recorded, texts, c2s, s2c } = asPyrddlgym('sysadmin_inst_mdp__1');
    const inputs = [input('run.c2s.raw', c2s), input('run.s2c.raw', s2c)];
    expect(detectFormats(inputs, PROTOCOLS)[0]).toMatchObject({
      format: 'rddlsim-pyrddlgym-stream',
      confidence: 0.92,
    });
    const result = importRecording(inputs, PROTOCOLS);
    expect(result.problems).toEqual([]);
    expect(result.transcripts[0]!.messages.map((m) => ({ dir: m.dir, text: m.text }))).toEqual(texts);
    const rounds = inspectRecording(inputs, PROTOCOLS).sessions[0]!.rounds;
    expect(rounds.length).toBeGreaterThan(0);
    expect(rounds.map((r) => r.reward)).toEqual(
      recorded.messages
        .filter((m) => m.text?.includes('<round-end>'))
        .map((m) => Number(/<round-reward>([^<]*)</.exec(m.text!)![1])),
    );
  });

  it('locates a message cut off by the end of the file and keeps everything before it', () => {
    const cut = handWritten.slice(0, handWritten.lastIndexOf('<session-end>') + 40);
    const result = importRecording([input('cut.log', cut)], PROTOCOLS);
    expect(result.format).toBe('rddlsim-pyrddlgym-stream');
    expect(result.transcripts[0]!.messages).toHaveLength(10);
    const line = cut.slice(0, cut.lastIndexOf('<session-end>')).split('\n').length;
    expect(result.problems).toEqual([
      {
        file: 'cut.log',
        line,
        message: expect.stringContaining('ends in the middle of a message'),
      },
    ]);
  });

  it('reads a last message that no \\n\\n\\n follows as sound when it is whole, whole and in chunks', () => {
    // pyRDDLGym's own server writes no terminator after its messages, and an editor ends a file with one
    // newline: a whole last message is no cut.
    const sound = importRecording([input('session.log', handWritten)], PROTOCOLS);
    const texts = sound.transcripts[0]!.messages.map((m) => m.text);
    expect(texts).toHaveLength(10);
    const body = handWritten.replace(/\n\n\n$/, '');
    expect(body).not.toBe(handWritten);
    for (const ending of ['', '\n', '\n\n', '\r\n']) {
      const log = `${body}${ending}`;
      const result = importRecording([input('session.log', log)], PROTOCOLS);
      expect(result.format).toBe('rddlsim-pyrddlgym-stream');
      expect(result.problems).toEqual([]);
      expect(result.transcripts[0]!.messages.map((m) => m.text)).toEqual(texts);
      const bytes = encoder.encode(log);
      for (const size of [1, 2, 7, bytes.length]) {
        const messages: (string | undefined)[] = [];
        const problems: unknown[] = [];
        const reader = rddlsimPyrddlgymStreamFormat.stream!('session.log', {
          message: (message) => messages.push(message.text),
          problem: (problem) => problems.push(problem),
        });
        for (let at = 0; at < bytes.length; at += size) reader.push(bytes.slice(at, at + size));
        reader.end();
        expect(problems).toEqual([]);
        expect(messages).toEqual(texts);
      }
    }
  });

  it('skips garbage and messages in the wrong stream, each with its line, keeping the rest', () => {
    const { texts, c2s, s2c } = asPyrddlgym('game_of_life_inst_mdp__1');
    const damaged = c2s.replace('<round-request/>', 'garbage\n\n\n<turn></turn>\n\n\n<round-request/>');
    const garbageLine = c2s.slice(0, c2s.indexOf('<round-request/>')).split('\n').length;
    const result = importRecording([input('g.c2s.raw', damaged), input('g.s2c.raw', s2c)], PROTOCOLS);
    expect(result.problems).toEqual([
      { file: 'g.c2s.raw', line: garbageLine, message: "not an rddlsim message, skipped: 'garbage'" },
      {
        file: 'g.c2s.raw',
        line: garbageLine + 3,
        message: "a server message <turn> in the client's stream, skipped",
      },
    ]);
    expect(result.transcripts[0]!.messages.map((m) => ({ dir: m.dir, text: m.text }))).toEqual(texts);
  });

  it('leaves NUL-separated streams to the NUL formats', () => {
    const recorded = loadRecording('sysadmin_inst_mdp__1');
    const nul = recorded.messages
      .filter((m) => m.dir === 'c2s')
      .map((m) => `${m.text}\0`)
      .join('');
    const detected = detectFormats([input('x.c2s.raw', nul), input('x.s2c.raw', nul)], PROTOCOLS);
    expect(detected.map((c) => c.format)).not.toContain('rddlsim-pyrddlgym-stream');
  });
});
