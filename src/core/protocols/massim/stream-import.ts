/**
 * Imports MASSim connections captured as raw byte streams only (`<connection>.c2s.bin` and
 * `<connection>.s2c.bin`, every frame followed by one 0 byte), without a timeline. The streams carry no
 * times, so each connection's two directions are put back in causal order: the agent's first frames (its
 * login or status request) come before the server's first answer, and each action follows the
 * request-action whose id it names (or the latest one, when its id cannot be read). Times come from the
 * server's own clock in its frames (`meta.timing: "server-clock"`).
 */
import { decodeWireBytes, setPayload } from '../../transcript/bytes';
import type { Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import { TRANSCRIPT_FORMAT_VERSION } from '../../transcript/model';

/** One direction of one connection. */
export interface MassimStream {
  conn: string;
  dir: Direction;
  bytes: Uint8Array;
}

const utf8 = new TextDecoder();

/** The frames of a 0-terminated stream; an unterminated rest is kept as a last frame. */
function framesOf(bytes: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0); end >= 0; end = bytes.indexOf(0, start)) {
    frames.push(bytes.subarray(start, end));
    start = end + 1;
  }
  if (start < bytes.length) frames.push(bytes.subarray(start));
  return frames;
}

/** The `id` a client action names, or a request-action carries; undefined when it cannot be read. */
function idOf(frame: Uint8Array): number | undefined {
  const match = /"id"\s*:\s*"?(\d+)/.exec(utf8.decode(frame.subarray(0, 200)));
  return match ? Number(match[1]) : undefined;
}

function isRequestAction(frame: Uint8Array): boolean {
  return /"type"\s*:\s*"request-action"/.test(utf8.decode(frame.subarray(0, 40)));
}

function isAction(frame: Uint8Array): boolean {
  return /"type"\s*:\s*"action"/.test(utf8.decode(frame.subarray(0, 40)));
}

/** The frames of one connection in causal order. */
function interleave(c2s: Uint8Array[], s2c: Uint8Array[]): { dir: Direction; bytes: Uint8Array }[] {
  const ordered: { dir: Direction; bytes: Uint8Array }[] = [];
  let next = 0;
  const clientUpTo = (lastRequest: number | undefined) => {
    while (next < c2s.length) {
      const frame = c2s[next]!;
      if (isAction(frame)) {
        const id = idOf(frame);
        // An action answers a request already sent; one naming a later id waits for that request.
        if (lastRequest === undefined || (id !== undefined && id > lastRequest)) return;
      } else if (ordered.some((item) => item.dir === 's2c') && lastRequest === undefined) return;
      ordered.push({ dir: 'c2s', bytes: frame });
      next++;
    }
  };
  clientUpTo(undefined);
  let lastRequest: number | undefined;
  for (const frame of s2c) {
    ordered.push({ dir: 's2c', bytes: frame });
    if (isRequestAction(frame)) lastRequest = idOf(frame) ?? lastRequest;
    clientUpTo(lastRequest);
  }
  while (next < c2s.length) ordered.push({ dir: 'c2s', bytes: c2s[next++]! });
  return ordered;
}

/** The server's clock in a frame (`content.time`, ms since 1970), when the frame has one. */
function serverTime(frame: Uint8Array): number | undefined {
  const match = /"time"\s*:\s*(\d{6,})/.exec(
    utf8.decode(frame.length > 4096 ? frame.subarray(frame.length - 4096) : frame),
  );
  return match ? Number(match[1]) : undefined;
}

/**
 * Reads the streams (of one or several connections) into one transcript. Server frames carry the server's
 * clock (`time` of sim-start, request-action, sim-end...): each frame is timed by the latest such time on
 * its connection (the first known one for frames before it), and connections are merged in that order, so
 * the agents' steps line up. Frames with no server time anywhere on their connection keep time 0.
 */
export function importMassimStreams(streams: readonly MassimStream[], source = 'massim-streams'): Transcript {
  const connections = [...new Set(streams.map((stream) => stream.conn))];
  const timed: { conn: string; dir: Direction; bytes: Uint8Array; at: number; order: number }[] = [];
  for (const conn of connections) {
    const bytesOf = (dir: Direction) => streams.find((s) => s.conn === conn && s.dir === dir)?.bytes;
    const c2s = bytesOf('c2s');
    const s2c = bytesOf('s2c');
    const frames = interleave(c2s ? framesOf(c2s) : [], s2c ? framesOf(s2c) : []);
    const times = frames.map((frame) => (frame.dir === 's2c' ? serverTime(frame.bytes) : undefined));
    let at = times.find((time) => time !== undefined);
    frames.forEach((frame, i) => {
      at = times[i] ?? at;
      timed.push({ conn, ...frame, at: at ?? Number.NaN, order: timed.length });
    });
  }
  const known = timed.filter((frame) => !Number.isNaN(frame.at));
  const start = known.length ? Math.min(...known.map((frame) => frame.at)) : 0;
  timed.sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? 0 : a.at - b.at) || a.order - b.order);
  const messages = timed.map((frame, index) => {
    const t = Number.isNaN(frame.at) ? 0 : frame.at - start;
    const read = setPayload<TranscriptMessage>(
      { index, conn: frame.conn, dir: frame.dir, t, kind: 'data' },
      decodeWireBytes(frame.bytes),
    );
    read.framing = 'nul';
    return read;
  });
  return {
    format: 'protoplay-transcript',
    version: TRANSCRIPT_FORMAT_VERSION,
    protocol: 'massim',
    startedAt: start,
    meta: { source, imported: 'massim-streams', timing: known.length ? 'server-clock' : 'unknown' },
    connections: connections.map((id) => ({ id })),
    messages,
    annotations: [],
  };
}
