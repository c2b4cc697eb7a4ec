/**
 * Recordings of real aisys traffic read into transcripts: the exchange lists of the conformance
 * recordings (`.jsonl`, one exchange per line, and `.http`, the raw bytes of each exchange), and HAR files
 * as browsers' developer tools and HTTP proxies save them. Each exchange becomes a request message and a
 * response message paired by their `http` meta; `/act` exchanges carry their agent as the channel. What
 * cannot be read is reported as a problem with its line, never thrown.
 */
import type { TranscriptMessage, Transcript } from '../../transcript/model';
import type {
  HttpMessage,
  ImportInput,
  ImportOutcome,
  ImportProblem,
  RecordingFormat,
  RecordingStreamReader,
  RecordingStreamSink,
} from '../contract';
import {
  CappedLines,
  describeLineLimit,
  MAX_LINE_CHARACTERS,
  type LineLimit,
} from '../../transcript/line-limit';
import { actPathEnvironment, aisysChannel } from './codec';

/** One HTTP exchange as a recording holds it. */
export interface RecordedExchange {
  /** The connection it travelled on, as the recording names it. */
  conn: string;
  /** When the request was sent, in ms since the Unix epoch, when known. */
  at?: number;
  request: RecordedMessage & { method: string; target: string };
  response?: RecordedMessage & { status: number };
  /** A label the recording gave the exchange (the conformance recordings' `X-Case` header). */
  label?: string;
  /**
   * The agent (`env/agent`) of a request whose body, which names it, was not recorded, when the
   * recording's other requests to that environment all name this one (`attributeUnrecorded`).
   */
  channel?: string;
}

/** One half of a recorded exchange. */
export interface RecordedMessage {
  headers: readonly (readonly [string, string])[];
  body: string;
  /**
   * Why the body is unknown, when the recording did not keep it (a HAR entry without `content.text`): the
   * half becomes an `error` record saying so, never an empty body (`exchangeMessages`).
   */
  notRecorded?: string;
}

/** The headers a transcript keeps: what the protocol reads (and the recorder's case label in a note). */
const KEPT_HEADERS = new Set(['content-type', 'content-length', 'authorization', 'allow', 'retry-after']);

function keptHeaders(headers: readonly (readonly [string, string])[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers)
    if (KEPT_HEADERS.has(name.toLowerCase())) kept[name.toLowerCase()] = value;
  return kept;
}

/**
 * The request and response messages of one exchange, from message `index` on. A half whose body was not
 * recorded is an `error` record with the exchange's `http` and why as its text: the machines judge
 * neither it nor what depends on it (`conversation.ts`), and nothing reads it as a body. A request not
 * recorded names no agent: unless the exchange was given one (`channel`), its response, even recorded,
 * belongs to no agent's conversation and is such a record too.
 */
function exchangeMessages(
  exchange: RecordedExchange,
  index: number,
  startedAt: number,
  previousT: number,
): TranscriptMessage[] {
  const t = exchange.at === undefined ? previousT : Math.max(0, exchange.at - startedAt);
  const requestMessage: HttpMessage = {
    meta: {
      method: exchange.request.method,
      path: exchange.request.target,
      headers: keptHeaders(exchange.request.headers),
    },
    body: exchange.request.body,
  };
  const requestKnown = exchange.request.notRecorded === undefined;
  const channel = requestKnown ? aisysChannel(requestMessage) : exchange.channel;
  const request: TranscriptMessage = {
    index,
    conn: exchange.conn,
    dir: 'c2s',
    t,
    ...(requestKnown
      ? { kind: 'data', text: exchange.request.body, framing: 'frame' }
      : { kind: 'error', text: exchange.request.notRecorded }),
    ...(channel ? { channel } : {}),
    http: { exchange: index, ...requestMessage.meta },
  };
  if (!exchange.response) return [request];
  const responseNotRecorded =
    exchange.response.notRecorded ??
    (requestKnown || channel ? undefined : 'not judged: the body of its request was not recorded');
  return [
    request,
    {
      index: index + 1,
      conn: exchange.conn,
      dir: 's2c',
      t,
      ...(responseNotRecorded === undefined
        ? { kind: 'data', text: exchange.response.body, framing: 'frame' }
        : { kind: 'error', text: responseNotRecorded }),
      ...(channel ? { channel } : {}),
      http: {
        exchange: index,
        status: exchange.response.status,
        headers: keptHeaders(exchange.response.headers),
      },
    },
  ];
}

/** A transcript of exchanges, in the order given. */
export function exchangesToTranscript(
  exchanges: readonly RecordedExchange[],
  meta: Transcript['meta'],
): Transcript {
  const startedAt = exchanges.find((exchange) => exchange.at !== undefined)?.at ?? 0;
  const messages: TranscriptMessage[] = [];
  const annotations: Transcript['annotations'] = [];
  for (const exchange of exchanges) {
    const index = messages.length;
    messages.push(...exchangeMessages(exchange, index, startedAt, messages.at(-1)?.t ?? 0));
    if (exchange.label) annotations.push({ index, type: 'note', data: { text: `case: ${exchange.label}` } });
  }
  const connections = [...new Set(messages.map((message) => message.conn))].map((id) => ({ id }));
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'aisys',
    startedAt,
    meta,
    connections,
    messages,
    annotations,
  };
}

const decoder = new TextDecoder('utf-8');

function text(input: ImportInput): string {
  return decoder.decode(input.bytes);
}

/**
 * What detection looks at: the input's first 64 KiB (all a streamed import has at first), decoded; decoding
 * a whole big file for each format's guess took longer than reading it.
 */
const DETECTION_BYTES = 64 << 10;

function textStart(input: ImportInput): string {
  return decoder.decode(input.bytes.subarray(0, DETECTION_BYTES));
}

/** The first non-blank line of an input (as far as detection looks). */
function firstLine(input: ImportInput): string {
  return textStart(input).trimStart().split('\n', 1)[0] ?? '';
}

/** Reads inputs one by one with `readOne`, one transcript per input that held any exchange. */
function readEach(
  inputs: readonly ImportInput[],
  readOne: (input: ImportInput, problems: ImportProblem[]) => RecordedExchange[],
  source: string,
): ImportOutcome {
  const transcripts: Transcript[] = [];
  const sources: string[][] = [];
  const problems: ImportProblem[] = [];
  for (const input of inputs) {
    const exchanges = readOne(input, problems);
    if (exchanges.length > 0) {
      transcripts.push(exchangesToTranscript(exchanges, { source, file: input.name }));
      sources.push([input.name]);
    } else if (!problems.some((problem) => problem.file === input.name))
      problems.push({ file: input.name, message: 'no HTTP exchange found' });
  }
  return { transcripts, problems, sources };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function headerPairs(value: unknown): [string, string][] | undefined {
  if (!Array.isArray(value)) return undefined;
  const pairs: [string, string][] = [];
  for (const item of value) {
    if (Array.isArray(item) && typeof item[0] === 'string' && typeof item[1] === 'string')
      pairs.push([item[0], item[1]]);
    else if (isRecord(item) && typeof item.name === 'string' && typeof item.value === 'string')
      pairs.push([item.name, item.value]);
    else return undefined;
  }
  return pairs;
}

function labelOf(headers: readonly (readonly [string, string])[]): string | undefined {
  return headers.find(([name]) => name.toLowerCase() === 'x-case')?.[1];
}

/** One exchange of the conformance `.jsonl` files, or why the line is not one. */
function readJsonlExchange(line: string): RecordedExchange | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (!isRecord(value) || !isRecord(value.request)) return 'expected an object with "request" and "response"';
  const { request, response } = value;
  const requestHeaders = headerPairs(request.headers);
  if (typeof request.method !== 'string' || typeof request.target !== 'string' || !requestHeaders)
    return 'the request needs method, target and headers';
  const exchange: RecordedExchange = {
    conn: `conn ${typeof value.conn === 'number' || typeof value.conn === 'string' ? value.conn : '?'}`,
    ...(typeof value.opened === 'number' ? { at: value.opened * 1000 } : {}),
    request: {
      method: request.method,
      target: request.target,
      headers: requestHeaders,
      body: typeof request.body === 'string' ? request.body : '',
    },
  };
  const label = labelOf(requestHeaders);
  if (label) exchange.label = label;
  if (isRecord(response)) {
    const responseHeaders = headerPairs(response.headers);
    if (typeof response.status !== 'number' || !responseHeaders)
      return 'the response needs status and headers';
    exchange.response = {
      status: response.status,
      headers: responseHeaders,
      body: typeof response.body === 'string' ? response.body : '',
    };
  }
  return exchange;
}

/** The conformance recordings' `.jsonl`: one JSON object per exchange. */
export const aisysJsonlFormat: RecordingFormat = {
  id: 'aisys-exchange-jsonl',
  description: 'recorded aisysprojserver exchanges (one JSON object per line)',
  detect(inputs) {
    if (inputs.length === 0) return 0;
    return inputs.every((input) => {
      const line = firstLine(input);
      // A HAR file written on one line starts like an exchange too, with its log.
      return (
        line.startsWith('{') &&
        !/^\{\s*"log"\s*:/.test(line) &&
        line.includes('"request"') &&
        line.includes('"method"')
      );
    })
      ? 0.9
      : 0;
  },
  read: (inputs) =>
    readEach(
      inputs,
      (input, problems) => {
        const exchanges: RecordedExchange[] = [];
        text(input)
          .split('\n')
          .forEach((line, i) => {
            if (!line.trim()) return;
            const read = readJsonlExchange(line);
            if (typeof read === 'string') problems.push({ file: input.name, line: i + 1, message: read });
            else exchanges.push(read);
          });
        return exchanges;
      },
      'aisys jsonl recording',
    ),
  stream: streamAisysJsonl,
};

/**
 * The `.jsonl` recording fed in chunks: each exchange's messages as soon as its line is complete. A line
 * longer than the limit (`MAX_LINE_CHARACTERS`) is reported with its number as soon as it is that long, and
 * skipped up to the next line, so a file cut inside a line that never ends is read in bounded memory.
 */
export function streamAisysJsonl(
  name: string,
  sink: RecordingStreamSink,
  { maxLineCharacters = MAX_LINE_CHARACTERS }: LineLimit = {},
): RecordingStreamReader {
  const decoder = new TextDecoder('utf-8');
  let lineNumber = 0;
  let index = 0;
  let startedAt: number | undefined;
  let previousT = 0;
  let problems = 0;
  const tooLong = () => {
    problems++;
    sink.problem({
      file: name,
      line: ++lineNumber,
      message: `a line longer than ${describeLineLimit(maxLineCharacters)} is not an exchange; skipped to the next line`,
    });
  };
  const readLine = (line: string) => {
    lineNumber++;
    if (!line.trim()) return;
    const read = readJsonlExchange(line);
    if (typeof read === 'string') {
      problems++;
      sink.problem({ file: name, line: lineNumber, message: read });
      return;
    }
    startedAt ??= read.at;
    for (const message of exchangeMessages(read, index, startedAt ?? 0, previousT)) {
      sink.message(message);
      previousT = message.t;
      index++;
    }
  };
  const lines = new CappedLines({ line: readLine, tooLong }, { maxLineCharacters });
  return {
    push: (chunk) => lines.push(decoder.decode(chunk, { stream: true })),
    end() {
      lines.push(decoder.decode(), true);
      if (index === 0 && problems === 0) sink.problem({ file: name, message: 'no HTTP exchange found' });
    },
  };
}

const encoder = new TextEncoder();

/** A head (request or status line and headers) of the raw `.http` format. */
function readHead(head: string): { first: string; headers: [string, string][] } {
  const [first = '', ...lines] = head.split(/\r?\n/);
  const headers: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { first, headers };
}

function contentLength(headers: readonly (readonly [string, string])[]): number | undefined {
  const value = headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A message's head (up to its blank line, CRLF as on the wire or LF) and what follows it. */
function splitHead(text: string): { head: string; rest: string } {
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { head: text.slice(0, crlf), rest: text.slice(crlf + 4) };
  if (lf >= 0) return { head: text.slice(0, lf), rest: text.slice(lf + 2) };
  return { head: text, rest: '' };
}

/** The first `length` bytes of `text` (UTF-8) as text, or undefined when there are fewer or a character is cut. */
function bytePrefix(text: string, length: number): string | undefined {
  const bytes = encoder.encode(text);
  if (length > bytes.length) return undefined;
  const prefix = decoder.decode(bytes.subarray(0, length));
  return text.startsWith(prefix) ? prefix : undefined;
}

/**
 * A request's body and what follows it (the response): `Content-Length` bytes when a status line follows
 * them, else everything up to the first status line (recordings may shorten a body and keep its header).
 */
function splitRequestBody(afterHead: string, length: number | undefined): { body: string; rest: string } {
  const statusLine = /\n\nHTTP\/\d\.\d \d{3}/;
  if (length !== undefined) {
    const body = bytePrefix(afterHead, length);
    if (body !== undefined && afterHead.slice(body.length).search(statusLine) === 0)
      return { body, rest: afterHead.slice(body.length + 2) };
  }
  const found = statusLine.exec(afterHead);
  if (found) return { body: afterHead.slice(0, found.index), rest: afterHead.slice(found.index + 2) };
  return { body: afterHead.replace(/\n\n$/, ''), rest: '' };
}

/** A response's body: `Content-Length` bytes when only blank lines follow, else all but the separator. */
function responseBody(afterHead: string, length: number | undefined): string {
  if (length !== undefined) {
    const body = bytePrefix(afterHead, length);
    if (body !== undefined && /^\n*$/.test(afterHead.slice(body.length))) return body;
  }
  return afterHead.endsWith('\n\n') ? afterHead.slice(0, -2) : afterHead;
}

/** Whether a message's body is sent in chunks (`Transfer-Encoding: chunked`, which wins over `Content-Length`). */
function isChunked(headers: readonly (readonly [string, string])[]): boolean {
  const value = headers.find(([name]) => name.toLowerCase() === 'transfer-encoding')?.[1];
  return value !== undefined && /(?:^|,)\s*chunked\s*$/i.test(value);
}

/**
 * A chunked body (`Transfer-Encoding: chunked`) decoded as Werkzeug decodes it: hexadecimal sizes (an
 * extension after `;` ignored), each chunk's bytes followed by a line break, a last chunk of size 0 and
 * then trailer lines up to an empty one. Gives the body and the text after it, or what is wrong and on
 * which line of `text` (from 0). Line breaks may be CRLF, as on the wire, or LF.
 */
function readChunked(text: string): { body: string; rest: string } | { problem: string; line: number } {
  const bytes = encoder.encode(text);
  const parts: Uint8Array[] = [];
  let at = 0;
  let line = 0;
  /** The line starting at `at`, without its line break; undefined when none ends there. */
  const nextLine = (): string | undefined => {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) return undefined;
    const read = decoder.decode(bytes.subarray(at, end > at && bytes[end - 1] === 0x0d ? end - 1 : end));
    at = end + 1;
    line++;
    return read;
  };
  for (;;) {
    const sizeLine = nextLine();
    if (sizeLine === undefined) return { problem: 'the chunked body ends before its last chunk', line };
    const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(sizeLine);
    if (!size) return { problem: `not a chunk size: ${JSON.stringify(sizeLine)}`, line: line - 1 };
    const length = parseInt(size[1]!, 16);
    if (length === 0) break;
    if (at + length > bytes.length)
      return { problem: `a chunk of ${length} bytes, but the body ends first`, line: line - 1 };
    parts.push(bytes.subarray(at, at + length));
    at += length;
    const end = bytes[at] === 0x0d && bytes[at + 1] === 0x0a ? 2 : bytes[at] === 0x0a ? 1 : 0;
    if (end === 0)
      return { problem: `a chunk of ${length} bytes is not followed by a line break`, line: line - 1 };
    for (const byte of bytes.subarray(at - length, at)) if (byte === 0x0a) line++;
    at += end;
    line++;
  }
  for (let trailer = nextLine(); trailer !== ''; trailer = nextLine())
    if (trailer === undefined) return { problem: 'the chunked body ends inside its trailer', line };
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let filled = 0;
  for (const part of parts) {
    body.set(part, filled);
    filled += part.length;
  }
  return { body: decoder.decode(body), rest: decoder.decode(bytes.subarray(at)) };
}

/** How many line breaks `text` holds. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The conformance recordings' `.http`: each exchange's bytes as text under `#### conn N exchange M`. */
export const aisysHttpTextFormat: RecordingFormat = {
  id: 'aisys-http-text',
  description: 'recorded aisysprojserver exchanges as raw HTTP text (#### conn N exchange M)',
  detect(inputs) {
    if (inputs.length === 0) return 0;
    return inputs.every((input) => /^#### conn \S+ exchange \S+/.test(firstLine(input))) ? 0.9 : 0;
  },
  read: (inputs) =>
    readEach(
      inputs,
      (input, problems) => {
        const all = text(input);
        const exchanges: RecordedExchange[] = [];
        // A file saved with CRLF line ends (git's autocrlf, a Windows editor) has them on its marker lines too.
        const marker = /^#### conn (\S+) exchange (\S+)\r?\n/gm;
        const starts = [...all.matchAll(marker)];
        // Lines counted from the previous exchange on: counting from the start each time was quadratic.
        let line = 1;
        let counted = 0;
        starts.forEach((start, i) => {
          for (
            let at = all.indexOf('\n', counted);
            at >= 0 && at < start.index;
            at = all.indexOf('\n', at + 1)
          )
            line++;
          counted = start.index;
          let chunk = all.slice(start.index + start[0].length, starts[i + 1]?.index ?? all.length);
          // Every line break of such a file became CRLF, the bodies' too: as LF again, each body is the bytes
          // its Content-Length counts, as in the file recorded (heads read with either).
          if (start[0].endsWith('\r\n')) chunk = chunk.replace(/\r\n/g, '\n');
          const { head, rest: afterHead } = splitHead(chunk);
          const request = readHead(head);
          const requestLine = /^(\S+) (\S+) HTTP\/\d\.\d$/.exec(request.first);
          if (!requestLine) {
            problems.push({
              file: input.name,
              line: line + 1,
              message: `not a request line: ${request.first}`,
            });
            return;
          }
          // The line the request's body starts on, and the response's head.
          const bodyLine = line + 1 + lineBreaks(head) + 2;
          let body: string;
          let rest: string;
          if (isChunked(request.headers)) {
            const chunked = readChunked(afterHead);
            if ('problem' in chunked) {
              problems.push({
                file: input.name,
                line: bodyLine + chunked.line,
                message: `the request body: ${chunked.problem}`,
              });
              return;
            }
            body = chunked.body;
            rest = chunked.rest.replace(/^\n\n/, '');
          } else ({ body, rest } = splitRequestBody(afterHead, contentLength(request.headers)));
          const responseLine = bodyLine + lineBreaks(afterHead.slice(0, afterHead.length - rest.length));
          const exchange: RecordedExchange = {
            conn: `conn ${start[1]}`,
            request: { method: requestLine[1]!, target: requestLine[2]!, headers: request.headers, body },
          };
          const label = labelOf(request.headers);
          if (label) exchange.label = label;
          if (rest.trim()) {
            const split = splitHead(rest);
            const response = readHead(split.head);
            const status = /^HTTP\/\d\.\d (\d{3})/.exec(response.first);
            if (!status) {
              problems.push({
                file: input.name,
                line: responseLine,
                message: `not a status line: ${response.first}`,
              });
              return;
            }
            let body: string;
            if (isChunked(response.headers)) {
              const chunked = readChunked(split.rest);
              if ('problem' in chunked) {
                problems.push({
                  file: input.name,
                  line: responseLine + lineBreaks(split.head) + 2 + chunked.line,
                  message: `the response body: ${chunked.problem}`,
                });
                return;
              }
              body = chunked.body;
            } else body = responseBody(split.rest, contentLength(response.headers));
            exchange.response = { status: Number(status[1]), headers: response.headers, body };
            const date = response.headers.find(([name]) => name.toLowerCase() === 'date')?.[1];
            const at = date === undefined ? NaN : Date.parse(date);
            if (Number.isFinite(at)) exchange.at = at;
          }
          exchanges.push(exchange);
        });
        return exchanges;
      },
      'aisys http recording',
    ),
};

/** A HAR file (HTTP Archive 1.2), as browsers and proxies save traffic; only exchanges with a body or an `/act` path matter. */
export const aisysHarFormat: RecordingFormat = {
  id: 'aisys-har',
  description: 'an HTTP Archive (.har) of aisysprojserver traffic',
  detect(inputs) {
    if (inputs.length === 0) return 0;
    return inputs.every((input) => {
      const head = textStart(input).slice(0, 4000);
      return /^\s*\{/.test(head) && /"log"\s*:/.test(head) && /"entries"\s*:|"creator"\s*:/.test(head);
    })
      ? input0HasAct(inputs)
      : 0;
  },
  read: (inputs) =>
    readEach(
      inputs,
      (input, problems) => {
        let value: unknown;
        try {
          value = JSON.parse(text(input));
        } catch (error) {
          problems.push({ file: input.name, message: `not JSON: ${(error as Error).message}` });
          return [];
        }
        const entries = isRecord(value) && isRecord(value.log) ? value.log.entries : undefined;
        if (!Array.isArray(entries)) {
          problems.push({ file: input.name, message: 'a HAR file needs log.entries' });
          return [];
        }
        const exchanges: RecordedExchange[] = [];
        let explained = false;
        entries.forEach((entry, i) => {
          const read = readHarEntry(entry);
          if (typeof read === 'string') {
            problems.push({ file: input.name, message: `log.entries[${i}]: ${read}` });
            return;
          }
          exchanges.push(read);
          // Only what the protocol judges: a page's own files may well be left out.
          if (actPathEnvironment(read.request.target) === undefined) return;
          for (const half of [read.request, read.response])
            if (half?.notRecorded !== undefined) {
              const consequence = explained ? '' : `: ${NOT_RECORDED_CONSEQUENCE}`;
              explained = true;
              problems.push({
                file: input.name,
                message: `log.entries[${i}]: ${half.notRecorded}${consequence}`,
              });
            }
        });
        attributeUnrecorded(exchanges);
        return exchanges;
      },
      'HAR file',
    ),
};

/**
 * Gives each `/act` exchange whose request body was not recorded the agent of the others to the same
 * environment, when they all name one (a student's own session): its recorded answer then says what that
 * agent is asked next. With several agents, or none, the exchange belongs to none.
 */
function attributeUnrecorded(exchanges: RecordedExchange[]): void {
  const agents = new Map<string, Set<string>>();
  for (const exchange of exchanges) {
    const env = actPathEnvironment(exchange.request.target);
    if (env === undefined || exchange.request.notRecorded !== undefined) continue;
    const channel = aisysChannel({ meta: { path: exchange.request.target }, body: exchange.request.body });
    if (channel === undefined) continue;
    let named = agents.get(env);
    if (!named) agents.set(env, (named = new Set()));
    named.add(channel);
  }
  for (const exchange of exchanges) {
    const env = actPathEnvironment(exchange.request.target);
    if (env === undefined || exchange.request.notRecorded === undefined) continue;
    const named = agents.get(env);
    if (named?.size === 1) exchange.channel = [...named][0]!;
  }
}

/** HAR files are common: sure only when one names an `/act/` URL. */
function input0HasAct(inputs: readonly ImportInput[]): number {
  return inputs.some((input) => /\/act\//.test(text(input))) ? 0.8 : 0.3;
}

/** What a body not recorded means for the judging, said once per file. */
const NOT_RECORDED_CONSEQUENCE =
  'it is not judged as a body, and the runs it may have asked for or acted on are not judged until the next answer that was recorded';

/** A size a HAR entry gives (`-1` or absent when unknown), for saying what was not recorded. */
function harSize(value: unknown): string {
  return typeof value === 'number' && value > 0 ? ` (${value} bytes)` : '';
}

/**
 * One HAR entry as an exchange. HAR 1.2 leaves out `response.content.text` when the body "is not
 * available" (browsers export a body they did not keep so, `content.size` still giving its size), and
 * `request.postData` likewise: such a body is not recorded (`notRecorded`), not empty; only a size of 0
 * (or a request with no size, or a GET) says that there was none.
 */
function readHarEntry(entry: unknown): RecordedExchange | string {
  if (!isRecord(entry) || !isRecord(entry.request)) return 'an entry needs a request';
  const { request, response } = entry;
  const headers = headerPairs(request.headers ?? []);
  if (typeof request.method !== 'string' || typeof request.url !== 'string' || !headers)
    return 'the request needs method, url and headers';
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(request.url);
  if (!url) return `not a URL: ${request.url}`;
  const target = url[1] || '/';
  const postData = isRecord(request.postData) ? request.postData : undefined;
  const withType = (list: [string, string][], mimeType: unknown) =>
    typeof mimeType === 'string' && !list.some(([name]) => name.toLowerCase() === 'content-type')
      ? [...list, ['content-type', mimeType] as [string, string]]
      : list;
  const exchange: RecordedExchange = {
    conn: typeof entry.connection === 'string' ? `conn ${entry.connection}` : 'har',
    request: {
      method: request.method,
      target,
      headers: withType(headers, postData?.mimeType),
      body: typeof postData?.text === 'string' ? postData.text : '',
    },
  };
  // Browsers send no body with GET, HEAD or OPTIONS, whatever size an export gives.
  if (
    typeof postData?.text !== 'string' &&
    !/^(?:GET|HEAD|OPTIONS)$/i.test(request.method) &&
    (postData !== undefined || (typeof request.bodySize === 'number' && request.bodySize > 0))
  )
    exchange.request.notRecorded = `the request body was not recorded${harSize(request.bodySize)}`;
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN;
  if (Number.isFinite(started)) exchange.at = started;
  if (isRecord(response) && typeof response.status === 'number' && response.status > 0) {
    const responseHeaders = headerPairs(response.headers ?? []) ?? [];
    const content = isRecord(response.content) ? response.content : {};
    let body = typeof content.text === 'string' ? content.text : '';
    const notRecorded = typeof content.text !== 'string' && content.size !== 0;
    if (content.encoding === 'base64' && !notRecorded) {
      try {
        body = decoder.decode(Uint8Array.from(atob(body), (char) => char.charCodeAt(0)));
      } catch {
        return 'the response body is not valid base64';
      }
    }
    exchange.response = {
      status: response.status,
      headers: withType(responseHeaders, content.mimeType),
      body,
    };
    if (notRecorded)
      exchange.response.notRecorded = `the response body was not recorded${harSize(content.size)}`;
  }
  return exchange;
}

/** The recording formats of the aisys protocol, most specific first. */
export const AISYS_RECORDING_FORMATS: readonly RecordingFormat[] = [
  aisysJsonlFormat,
  aisysHttpTextFormat,
  aisysHarFormat,
];
