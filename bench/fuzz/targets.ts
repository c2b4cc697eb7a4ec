/**
 * Fuzz targets: every codec, framing, machine, the RDDL parser and the transcript importer, each with an
 * input generator (mutations of real material, or random structure) and the properties it must keep for
 * any input: no crash (only Protoplay's own located errors may be thrown, where the API throws at all),
 * errors located, framing loses no byte. The test suite runs a fixed-seed sample of these; `npm run bench
 * -- fuzz` runs many more and prints inputs tried, failures and time.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { ProtoplayError } from '../../src/core/errors';
import { parseRddl } from '../../src/core/envs/rddl';
import type { ImportInput, ImportProblem } from '../../src/core/protocols/contract';
import { validate } from '../../src/core/protocols/machine';
import { readResponse } from '../../src/core/protocols/aisys/codec';
import { readGamaMessage, readReply } from '../../src/core/protocols/gama/codec';
import { decodeServerFrame, readClientFrame } from '../../src/core/protocols/massim/codec';
import { NulFrameSplitter } from '../../src/core/protocols/massim/framing';
import { parseOrgJson } from '../../src/core/protocols/massim/org-json';
import { importMassimReplays } from '../../src/core/protocols/massim/replay-import';
import { streamMassimTimeline } from '../../src/core/protocols/massim/timeline-stream';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { parseClientMessage, parseServerMessage } from '../../src/core/protocols/rddlsim/codec';
import { NulSplitter, ServerStreamSplitter } from '../../src/core/protocols/rddlsim/framing';
import { createRddlsimRoundEndReading } from '../../src/core/protocols/rddlsim/round-end-reading';
import { importRecording } from '../../src/core/transcript/import';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import type { TranscriptMessage } from '../../src/core/transcript/model';

/** One thing to fuzz: inputs, and a check that throws when a property is broken. */
export interface FuzzTarget<T = unknown> {
  name: string;
  input: fc.Arbitrary<T>;
  /** Throws (any error) when the target misbehaves on this input. */
  check(input: T): void;
}

const shared = (relative: string) => resolve(process.cwd(), '../shared', relative);
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** The messages of a NUL-terminated byte stream file. */
function nulMessages(path: string): string[] {
  return utf8
    .decode(readFileSync(path))
    .split('\0')
    .filter((text) => text.trim() !== '');
}

const rddlsimConformance = shared('conformance/rddlsim');
const serverMessages = nulMessages(resolve(rddlsimConformance, 'sysadmin_inst_pomdp__1.s2c.raw'));
const clientMessages = nulMessages(resolve(rddlsimConformance, 'sysadmin_inst_pomdp__1.c2s.raw'));
const massimLines = readFileSync(shared('conformance/massim/basic/all.timeline.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { dir: string; text: string });
const massimClientFrames = massimLines.filter((line) => line.dir === 'c2s').map((line) => line.text);
const massimServerFrames = massimLines.filter((line) => line.dir === 's2c').map((line) => line.text);

/** Request and response bodies of the recorded aisysprojserver exchanges. */
function aisysBodies(): { requests: string[]; responses: string[] } {
  const dir = shared('conformance/aisysprojserver/transcripts');
  const requests: string[] = [];
  const responses: string[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .slice(0, 6))
    for (const line of readFileSync(resolve(dir, name), 'utf8').split('\n').filter(Boolean)) {
      const exchange = JSON.parse(line) as { request?: { body?: string }; response?: { body?: string } };
      if (exchange.request?.body) requests.push(exchange.request.body);
      if (exchange.response?.body) responses.push(exchange.response.body);
    }
  return { requests: requests.slice(0, 60), responses: responses.slice(0, 60) };
}
const aisys = aisysBodies();

/** GAMA frames as the model and the API write them. */
const gamaClientFrames = [
  '{ "scenario": "C" }',
  '{ "id": "Scav. 1", "connect": true }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 0, 0, 0 ], [ 0, 1, 0 ], [ 0, 0, 0 ] ], "reward": 0 } }',
  '{ "id": "Scav. 2", "request": { "state": [ [ [ 0, 1 ], [ 1, 0 ] ] ], "reward": 1.5, "terminal": true } }',
];
const gamaServerFrames = ['Scav. 1;up', 'Scav. 2;down', 'Scav. 1;left'];

function rddlDomains(): string[] {
  const dir = shared('rddl/ippc2011');
  return readdirSync(dir)
    .filter((name) => name.endsWith('_mdp.rddl') || name.endsWith('.rddl'))
    .slice(0, 12)
    .map((name) => readFileSync(resolve(dir, name), 'utf8'));
}

/** One edit of a text: cut a range, insert random text, repeat a range, or cut the end off. */
type Edit =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'repeat'; at: number; length: number }
  | { kind: 'truncate'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '<',
        '>',
        '</',
        '"',
        '{',
        '}',
        '[',
        ']',
        '\0',
        '\\',
        '&',
        '<!--',
        ']]>',
        '-1e999',
        'NaN',
      ),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    ),
  }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function applyEdit(text: string, change: Edit): string {
  const at = text.length === 0 ? 0 : change.at % (text.length + 1);
  switch (change.kind) {
    case 'cut':
      return text.slice(0, at) + text.slice(at + change.length);
    case 'insert':
      return text.slice(0, at) + change.text + text.slice(at);
    case 'repeat':
      return (
        text.slice(0, at + change.length) +
        text.slice(at, at + change.length) +
        text.slice(at + change.length)
      );
    case 'truncate':
      return text.slice(0, at);
  }
}

/** A real text with one to four edits. */
function mutated(corpus: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...corpus), fc.array(edit, { minLength: 1, maxLength: 4 }))
    .map(([text, edits]) => edits.reduce(applyEdit, text));
}

/** Passes when `run` returns, or throws a ProtoplayError that says where. */
function locatedOrFine(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ProtoplayError)) throw error;
    if (error.message.trim() === '')
      throw new Error(`a ProtoplayError without a message (${error.code})`, { cause: error });
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Bytes cut into chunks at random places, as a socket might deliver them. */
const chunkedBytes = fc
  .tuple(
    fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      mutated(serverMessages.slice(0, 6)).map((t) => encoder.encode(`${t}\0`)),
    ),
    fc.array(fc.nat(), { maxLength: 6 }),
  )
  .map(([bytes, cuts]) => {
    const points = [...new Set(cuts.map((cut) => (bytes.length ? cut % bytes.length : 0)))].sort(
      (a, b) => a - b,
    );
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const point of points) {
      chunks.push(bytes.slice(from, point));
      from = point;
    }
    chunks.push(bytes.slice(from));
    return { bytes, chunks };
  });

/** A transcript message sequence of one connection, from real messages and random events. */
function messageSequence(clientTexts: readonly string[], serverTexts: readonly string[]) {
  return fc
    .array(
      fc.oneof(
        fc.record({
          dir: fc.constant('c2s' as const),
          kind: fc.constant('data' as const),
          text: mutated(clientTexts),
        }),
        fc.record({
          dir: fc.constant('s2c' as const),
          kind: fc.constant('data' as const),
          text: fc.constantFrom(...serverTexts),
        }),
        fc.record({
          dir: fc.constantFrom('c2s' as const, 's2c' as const),
          kind: fc.constantFrom('open' as const, 'close' as const, 'error' as const),
        }),
      ),
      { maxLength: 30 },
    )
    .map((items) => items.map((item, index): TranscriptMessage => ({ index, conn: 'c', t: index, ...item })));
}

function checkMachines(protocolId: string, messages: TranscriptMessage[]): void {
  const protocol = PROTOCOLS.find((p) => p.id === protocolId)!;
  for (const machine of protocol.machines) {
    const { violations } = validate(machine, messages);
    for (const violation of violations) {
      const last = messages.length ? messages[messages.length - 1]!.index : 0;
      if (violation.index < 0 || violation.index > last)
        throw new Error(`violation at ${violation.index} outside 0..${last}`);
      if (!violation.rule || !violation.message) throw new Error('violation without a rule or message');
    }
  }
}

const recordFile = readFileSync(resolve(rddlsimConformance, 'sysadmin_inst_mdp__1.transcript'));
/** Real server sessions whose rounds it ended early (too many actions, a state fluent sent as an action). */
const earlyEndRecordings = ['too_many_actions', 'state_fluent_as_action_nondefault'].map((name) =>
  readFileSync(resolve(rddlsimConformance, `edge-cases/${name}.transcript`)),
);
const recordings: ImportInput[][] = [
  [{ name: 'a.transcript', bytes: recordFile }],
  // The same session as Protoplay JSON (a cut or garbled one keeps what came before the damage).
  [
    {
      name: 'c.json',
      bytes: encoder.encode(
        serialiseTranscript(
          importRecording([{ name: 'a.transcript', bytes: recordFile }], PROTOCOLS).transcripts[0]!,
        ),
      ),
    },
  ],
  [
    {
      name: 'b.timeline.jsonl',
      bytes: encoder.encode(
        massimLines
          .slice(0, 60)
          .map((l) => JSON.stringify(l))
          .join('\n'),
      ),
    },
  ],
];

/** The replay folder the real server wrote for the recorded basic run. */
const massimReplay: ImportInput[] = (() => {
  const replays = shared('conformance/massim/basic/server-run/replays');
  const folder = readdirSync(replays)[0]!;
  return readdirSync(resolve(replays, folder))
    .sort()
    .map((file) => ({ name: `${folder}/${file}`, bytes: readFileSync(resolve(replays, folder, file)) }));
})();

/** A replay folder with one file damaged (edited, cut, replaced by binary garbage) and maybe one missing. */
const damagedReplay = fc
  .record({
    damaged: fc.nat(),
    edits: fc.array(edit, { minLength: 1, maxLength: 4 }),
    garbage: fc.option(fc.uint8Array({ maxLength: 400 })),
    missing: fc.option(fc.nat()),
  })
  .map(({ damaged, edits, garbage, missing }) =>
    massimReplay
      .map((input, i) =>
        i !== damaged % massimReplay.length
          ? input
          : {
              name: input.name,
              bytes: garbage ?? encoder.encode(edits.reduce(applyEdit, utf8.decode(input.bytes))),
            },
      )
      .filter((_, i) => missing === null || i !== missing % massimReplay.length),
  );

/** Problems must name their file and say what is wrong; lines, when given, count from 1. */
function checkProblems(problems: readonly ImportProblem[]): void {
  for (const problem of problems) {
    if (!problem.file || !problem.message) throw new Error('a problem without file or message');
    if (problem.line !== undefined && !(problem.line >= 1))
      throw new Error(`a problem at line ${problem.line}`);
  }
}

/** Messages must be numbered 0, 1, 2... without gaps. */
function checkIndices(messages: readonly TranscriptMessage[]): void {
  messages.forEach((message, i) => {
    if (message.index !== i) throw new Error(`message ${i} has index ${message.index}`);
  });
}

/**
 * A MASSim timeline as a recorder leaves it, damaged: edited lines, binary garbage, another protocol's
 * messages in between, or the end cut mid-line; delivered in chunks cut at random places.
 */
const damagedTimeline = fc
  .record({
    text: fc.oneof(
      mutated([
        massimLines
          .slice(0, 80)
          .map((line) => JSON.stringify(line))
          .join('\n'),
      ]),
      fc
        .tuple(fc.constantFrom(...massimLines.slice(0, 80)), fc.constantFrom(...serverMessages.slice(0, 5)))
        .map(([line, rddlsim]) => `${JSON.stringify(line)}\n${rddlsim}\0\n${JSON.stringify(line)}`),
    ),
    garbage: fc.option(fc.record({ at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }) })),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
  })
  .map(({ text, garbage, cuts }) => {
    let bytes: Uint8Array = encoder.encode(text);
    if (garbage) {
      const at = garbage.at % (bytes.length + 1);
      bytes = concat([bytes.subarray(0, at), garbage.bytes, bytes.subarray(at)]);
    }
    const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks = [...points, bytes.length].map((point, i) =>
      bytes.slice(i === 0 ? 0 : points[i - 1], point),
    );
    return { bytes, chunks };
  });

function readTimelineInChunks(chunks: readonly Uint8Array[]) {
  const messages: TranscriptMessage[] = [];
  const problems: ImportProblem[] = [];
  const reader = streamMassimTimeline('all.timeline.jsonl', {
    message: (message) => messages.push(message),
    problem: (problem) => problems.push(problem),
  });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { messages, problems };
}

/** Every fuzz target. */
export const FUZZ_TARGETS: readonly FuzzTarget<never>[] = [
  {
    name: 'rddlsim server messages (codec)',
    input: mutated(serverMessages),
    check: (text: string) => locatedOrFine(() => parseServerMessage(text)),
  },
  {
    name: 'rddlsim client messages (codec)',
    input: mutated(clientMessages),
    check: (text: string) => locatedOrFine(() => parseClientMessage(text)),
  },
  {
    name: 'rddlsim NUL framing (client side)',
    input: chunkedBytes,
    check: ({ bytes, chunks }: { bytes: Uint8Array; chunks: Uint8Array[] }) => {
      const splitter = new NulSplitter({ maxMessageBytes: 1 << 20 });
      const frames = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
      const rebuilt = concat(
        frames.flatMap((frame) =>
          frame.framing === 'nul' ? [frame.bytes, new Uint8Array([0])] : [frame.bytes],
        ),
      );
      if (rebuilt.length !== bytes.length || rebuilt.some((byte, i) => byte !== bytes[i]))
        throw new Error('framing lost or changed bytes');
    },
  },
  {
    name: 'rddlsim server stream framing (NUL and no-header)',
    input: chunkedBytes,
    check: ({ chunks }: { bytes: Uint8Array; chunks: Uint8Array[] }) => {
      const splitter = new ServerStreamSplitter({ maxMessageBytes: 1 << 20 });
      for (const chunk of chunks) splitter.push(chunk);
      splitter.end();
    },
  },
  {
    name: 'rddlsim machines (both roles)',
    input: messageSequence(clientMessages, serverMessages),
    check: (messages: TranscriptMessage[]) => checkMachines('rddlsim', messages),
  },
  {
    name: 'MASSim client frames (org.json reading)',
    input: fc.oneof(mutated(massimClientFrames), fc.string({ maxLength: 80 })),
    check: (text: string) => {
      readClientFrame(text);
      parseOrgJson(text);
    },
  },
  {
    name: 'MASSim server frames (codec)',
    input: mutated(massimServerFrames.slice(0, 40)),
    check: (text: string) => {
      const decoded = decodeServerFrame(text);
      if (!decoded.ok && !decoded.problem.message) throw new Error('a problem without a message');
    },
  },
  {
    name: 'MASSim 0-byte framing with maxPacketLength',
    input: chunkedBytes,
    check: ({ chunks }: { bytes: Uint8Array; chunks: Uint8Array[] }) => {
      const splitter = new NulFrameSplitter({ maxPacketLength: 256 });
      for (const chunk of chunks) splitter.push(chunk, () => undefined);
    },
  },
  {
    name: 'MASSim machines (both roles)',
    input: messageSequence(massimClientFrames, massimServerFrames.slice(0, 40)),
    check: (messages: TranscriptMessage[]) => checkMachines('massim', messages),
  },
  {
    name: 'aisysprojserver responses (codec)',
    input: fc.tuple(
      mutated([...aisys.responses, ...aisys.requests]),
      fc.constantFrom('application/json', 'text/html; charset=utf-8', 'text/plain', ''),
      fc.integer({ min: 100, max: 599 }),
    ),
    check: ([body, type, status]: [string, string, number]) => {
      const reading = readResponse({ meta: { status, headers: { 'content-type': type } }, body });
      if (reading.kind === 'unreadable' && !reading.problem) throw new Error('unreadable without a reason');
    },
  },
  {
    name: 'GAMA frames (codec)',
    input: fc.oneof(mutated([...gamaClientFrames, ...gamaServerFrames]), fc.string({ maxLength: 80 })),
    check: (text: string) => {
      const reading = readGamaMessage(text);
      if (!reading.ok && !reading.problem) throw new Error('a problem without a message');
      const reply = readReply(text);
      if (!reply.ok && !reply.problem) throw new Error('a reply problem without a message');
    },
  },
  {
    name: 'GAMA machines (both roles)',
    input: messageSequence(gamaClientFrames, gamaServerFrames),
    check: (messages: TranscriptMessage[]) => checkMachines('gama', messages),
  },
  {
    name: 'RDDL parser',
    input: mutated(rddlDomains()),
    check: (text: string) => {
      const { diagnostics } = parseRddl({ name: 'fuzz.rddl', text });
      for (const diagnostic of diagnostics)
        if (!(diagnostic.location.line >= 1))
          throw new Error(`diagnostic without a line: ${diagnostic.message}`);
    },
  },
  {
    name: 'transcript importer (every registered format)',
    input: fc
      .tuple(fc.constantFrom(...recordings), fc.array(edit, { minLength: 1, maxLength: 4 }))
      .map(([inputs, edits]) =>
        inputs.map((input) => ({
          name: input.name,
          bytes: encoder.encode(edits.reduce(applyEdit, latin1.decode(input.bytes))),
        })),
      ),
    check: (inputs: ImportInput[]) => {
      try {
        const result = importRecording(inputs, PROTOCOLS);
        for (const problem of result.problems)
          if (!problem.file || !problem.message) throw new Error('a problem without file or message');
      } catch (error) {
        if (!(error instanceof ProtoplayError) || error.code !== 'transcript.import.format') throw error;
      }
    },
  },
  {
    name: 'rddlsim round-end reading (damaged real recordings, with rounds the server ended early)',
    input: fc
      .tuple(fc.constantFrom(...earlyEndRecordings), fc.array(edit, { minLength: 1, maxLength: 4 }))
      .map(([bytes, edits]) => encoder.encode(edits.reduce(applyEdit, latin1.decode(bytes)))),
    check: (bytes: Uint8Array) => {
      let result;
      try {
        result = importRecording([{ name: 'a.transcript', bytes }], PROTOCOLS);
      } catch (error) {
        if (!(error instanceof ProtoplayError) || error.code !== 'transcript.import.format') throw error;
        return;
      }
      if (result.protocol !== 'rddlsim') return;
      // Whatever the damage (a garbled task, turns or actions, a round-end cut), the reading says nothing or
      // names a round, the message that ended it and why; it never throws.
      for (const transcript of result.transcripts) {
        const reading = createRddlsimRoundEndReading();
        for (const message of transcript.messages) reading.accept(message);
        const indexes = new Set(transcript.messages.map((message) => message.index));
        for (const end of reading.ended)
          if (!(end.round >= 1) || !indexes.has(end.index) || !end.why)
            throw new Error(`an early round end without round, message or reason: ${JSON.stringify(end)}`);
      }
    },
  },
  {
    name: 'MASSim server replay folder (damaged, garbage or missing step files)',
    input: damagedReplay,
    check: (inputs: ImportInput[]) => {
      const { transcripts, problems } = importMassimReplays(inputs);
      checkProblems(problems);
      for (const transcript of transcripts) checkIndices(transcript.messages);
      if (transcripts.length === 0 && problems.length === 0) throw new Error('nothing read and nothing said');
    },
  },
  {
    name: 'MASSim timeline read in chunks (damaged, garbage, mixed protocols, cut mid-line)',
    input: damagedTimeline,
    check: ({ bytes, chunks }: { bytes: Uint8Array; chunks: Uint8Array[] }) => {
      const chunked = readTimelineInChunks(chunks);
      checkProblems(chunked.problems);
      checkIndices(chunked.messages);
      // Where the chunks were cut changes nothing.
      const whole = readTimelineInChunks([bytes]);
      if (JSON.stringify(whole) !== JSON.stringify(chunked))
        throw new Error('reading in chunks differs from reading at once');
    },
  },
] as unknown as readonly FuzzTarget<never>[];
