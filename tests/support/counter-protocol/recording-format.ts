/**
 * The counter game's recording format: one line per message, `> ` before what the client sent and `< `
 * before what the server sent. A first round's `start` after the first message begins another session.
 */
import type { ImportProblem, RecordingFormat } from '../../../src/core/protocols/contract';
import type { Transcript } from '../../../src/core/transcript/model';
import { TRANSCRIPT_FORMAT_VERSION } from '../../../src/core/transcript/model';
import { readCounterMessage } from './messages';

const LINE = /^([<>]) (.*)$/;
const decoder = new TextDecoder();

function newSession(number: number, source: string): Transcript {
  return {
    format: 'protoplay-transcript',
    version: TRANSCRIPT_FORMAT_VERSION,
    protocol: 'counter',
    startedAt: 0,
    meta: { source, session: number },
    connections: [{ id: 'game-1' }],
    messages: [],
    annotations: [],
  };
}

/** A `start` of a first round (or of a game without rounds) begins a session; later rounds go on in it. */
function startsSession(text: string): boolean {
  const message = readCounterMessage(text);
  return message?.type === 'start' && (message.round === undefined || Number(message.round) === 1);
}

export const counterLogFormat: RecordingFormat = {
  id: 'counter-log',
  description: 'a counter game log (> and < lines)',
  detect: (inputs) =>
    inputs.length === 1 && /^[<>] \{/.test(decoder.decode(inputs[0]!.bytes.subarray(0, 200)).trimStart())
      ? 0.9
      : 0,
  read(inputs) {
    const transcripts: Transcript[] = [];
    const problems: ImportProblem[] = [];
    for (const input of inputs) {
      let current: Transcript | undefined;
      decoder
        .decode(input.bytes)
        .split('\n')
        .forEach((line, i) => {
          if (line.trim() === '') return;
          const match = LINE.exec(line);
          if (!match) {
            problems.push({
              file: input.name,
              line: i + 1,
              message: `not a "> " or "< " line: ${line.slice(0, 40)}`,
            });
            return;
          }
          const dir = match[1] === '>' ? 'c2s' : 's2c';
          const text = match[2]!;
          if (dir === 's2c' && startsSession(text) && current?.messages.length) current = undefined;
          current ??= transcripts[transcripts.push(newSession(transcripts.length + 1, input.name)) - 1]!;
          current.messages.push({
            index: current.messages.length,
            conn: 'game-1',
            dir,
            t: 0,
            kind: 'data',
            text,
            framing: 'none',
          });
        });
    }
    return { transcripts, problems };
  },
};
