/**
 * Writes big aisys recordings for the import benchmarks: a session of perfect Nim (five runs in parallel,
 * as the course client plays) against the emulated server, streamed to a Protoplay JSON file as
 * `protoplay run aisys --transcript` writes it, or the same exchanges in the other formats the import reads
 * (the conformance recordings' `.jsonl` and raw `.http`, and a HAR file).
 */
import { writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { localDecide } from '../../src/core/protocols/aisys/decide';
import { AisysSession } from '../../src/core/protocols/aisys/session';
import type { TranscriptMessage } from '../../src/core/transcript/model';
import { TranscriptFileStream } from '../../cli/transcript-stream';

/** Messages per run of perfect Nim with five runs in parallel (three actions a run, five runs an exchange). */
const MESSAGES_PER_RUN = 1.2;
/** Bytes of Protoplay JSON per run, measured on such sessions (84 MB for 85,000 runs). */
const BYTES_PER_RUN = 985;

const perfectNim = () => localDecide((percept) => (percept as number) % 4 || 1);

function session(runs: number, keep: boolean, stream?: TranscriptFileStream): AisysSession {
  let clock = 0;
  return new AisysSession({
    env: 'nim',
    runs,
    seed: 1,
    decide: perfectNim(),
    // A clock that moves a millisecond a message: the file is the same on every machine.
    now: () => clock++,
    keepTranscript: keep,
    ...(stream ? { transcriptSink: stream } : {}),
  });
}

/** Writes a Protoplay JSON transcript of about `messages` messages; resolves with its messages and size. */
export async function writeAisysTranscript(
  path: string,
  messages: number,
): Promise<{ messages: number; size: number }> {
  const stream = new TranscriptFileStream(path, 'aisys', process.cwd());
  const played = session(Math.max(1, Math.round(messages / MESSAGES_PER_RUN)), false, stream);
  await played.run();
  stream.finish(played.transcript);
  return { messages: played.recorder.messageCount, size: (await stat(path)).size };
}

/** Writes a Protoplay JSON transcript of about `bytes` bytes; resolves with its size (the page bench's shape). */
export async function writeBigAisysTranscript(path: string, bytes: number): Promise<number> {
  return (await writeAisysTranscript(path, (bytes / BYTES_PER_RUN) * MESSAGES_PER_RUN)).size;
}

/** The exchanges of a session of about `messages` messages, as request and response messages. */
export async function playAisysExchanges(messages: number): Promise<TranscriptMessage[]> {
  const played = session(Math.max(1, Math.round(messages / MESSAGES_PER_RUN)), true);
  await played.run();
  return played.transcript.messages;
}

/** The other recording formats aisys imports. */
export type AisysExchangeFormat = 'jsonl' | 'http' | 'har';

/** Writes `messages` (requests each followed by its response) in one of the exchange formats. */
export function writeAisysExchanges(
  path: string,
  messages: readonly TranscriptMessage[],
  format: AisysExchangeFormat,
): void {
  const pairs: [TranscriptMessage, TranscriptMessage][] = [];
  for (let i = 0; i + 1 < messages.length; i += 2) pairs.push([messages[i]!, messages[i + 1]!]);
  const startedAt = Date.UTC(2026, 10, 21);
  const headers = (message: TranscriptMessage) => Object.entries(message.http?.headers ?? {});
  if (format === 'jsonl') {
    const lines = pairs.map(([request, response], i) =>
      JSON.stringify({
        conn: 1,
        seq: i + 1,
        opened: (startedAt + request.t) / 1000,
        request: {
          method: request.http!.method,
          target: request.http!.path,
          version: 'HTTP/1.1',
          headers: headers(request),
          body: request.text,
        },
        response: { status: response.http!.status, headers: headers(response), body: response.text },
      }),
    );
    writeFileSync(path, lines.join('\n') + '\n');
    return;
  }
  if (format === 'http') {
    const head = (first: string, message: TranscriptMessage) =>
      [first, ...headers(message).map(([name, value]) => `${name}: ${value}`)]
        .concat(`Content-Length: ${Buffer.byteLength(message.text ?? '')}`)
        .join('\r\n');
    const parts = pairs.map(
      ([request, response], i) =>
        `#### conn 1 exchange ${i + 1}\n` +
        `${head(`${request.http!.method} ${request.http!.path} HTTP/1.1`, request)}\r\n\r\n${request.text}\n\n` +
        `${head(`HTTP/1.1 ${response.http!.status} OK`, response)}\r\n\r\n${response.text}\n\n\n`,
    );
    writeFileSync(path, parts.join(''));
    return;
  }
  const pairsOf = (message: TranscriptMessage) => headers(message).map(([name, value]) => ({ name, value }));
  const entries = pairs.map(([request, response]) => ({
    startedDateTime: new Date(startedAt + request.t).toISOString(),
    request: {
      method: request.http!.method,
      url: `http://127.0.0.1:5001${request.http!.path}`,
      headers: pairsOf(request),
      postData: { mimeType: 'application/json', text: request.text },
    },
    response: {
      status: response.http!.status,
      headers: pairsOf(response),
      content: { mimeType: 'application/json', text: response.text },
    },
  }));
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', creator: { name: 'bench' }, entries } }));
}
