/** The counter game's framing: one JSON object per line, `\n`-terminated, both ways. */
import type { StreamFraming, StreamFrame } from '../../../src/core/protocols/contract';

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** Cuts a byte stream at each newline; what is left at the end comes out unterminated. */
class LineSplitter {
  #pending = new Uint8Array(0);

  push(chunk: Uint8Array): StreamFrame[] {
    const bytes = new Uint8Array(this.#pending.length + chunk.length);
    bytes.set(this.#pending);
    bytes.set(chunk, this.#pending.length);
    const frames: StreamFrame[] = [];
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      frames.push({ bytes: bytes.slice(start, end), framing: 'none' });
      start = end + 1;
    }
    this.#pending = bytes.slice(start);
    return frames;
  }

  end(): StreamFrame[] {
    const rest = this.#pending;
    this.#pending = new Uint8Array(0);
    return rest.length ? [{ bytes: rest, framing: 'none' }] : [];
  }
}

export const lineFraming: StreamFraming = {
  framing: 'none',
  splitter: () => new LineSplitter(),
  encode: (text) => encoder.encode(`${text}\n`),
  terminator: NEWLINE,
};
