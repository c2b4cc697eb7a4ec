/**
 * The counter game's recording format: one line per message, `> ` before what the client sent and `< `
 * before what the server sent. A `start` after the first begins another session.
 */
import type { ImportProblem, RecordingFormat } from '../../../src/core/protocols/contract';
import type { Transcript } from '../../../src/core/transcript/model';
import { TRANSCRIPT_FORMAT_VERSION } from '../../../src/core/transcript/model';

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
          if (dir === 's2c' && /"type"\s*:\s*"start"/.test(text) && current?.messages.length)
            current = undefined;
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
