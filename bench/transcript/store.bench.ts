/**
 * The transcript store holding a whole contest sample match: 2 x 20 agents on 70 x 70 for 750 steps, then
 * 2 x 40 agents on 100 x 100 for 750 steps, every wire message and the world after every step, recorded
 * by the emulated host with trivial in-process policies. Measured, each next to the plain `Transcript`
 * (the interchange object, as an imported JSON file gives it) in the same run:
 * - memory: heap and array buffers held (after garbage collection), per message and in total;
 * - append throughput: the live way (request-actions and plain actions as phrases) and importing plain
 *   texts (deflated chunk by chunk);
 * - scrubbing: random access to a step (all its messages as text, plus the world snapshot of that step);
 * - export to Protoplay JSON: streamed from the store, against serialising the plain transcript.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MassimServerConfig } from '../../src/core/envs/massim/api';
import { sampleMassimConfig } from '../../src/core/envs/massim/index';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import type { MassimWorldAnnotation } from '../../src/core/protocols/massim/host';
import type { MassimAct } from '../../src/core/protocols/massim/policy-api';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import { parseTranscriptJson, serialiseTranscript } from '../../src/core/transcript/json-format';
import type { Transcript, TranscriptMessage } from '../../src/core/transcript/model';
import { writeTranscriptJson } from '../../src/core/transcript/json-export';
import { TranscriptStore } from '../../src/core/transcript/store/store';
import { formatNumber, printTable } from '../lib';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Bytes the process holds: JavaScript heap plus array buffers (typed arrays live there). */
function heldBytes(): { heap: number; buffers: number } {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

function timed<T>(work: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = work();
  return { result, ms: performance.now() - start };
}

const MB = 1e6;
const directions = ['n', 'e', 's', 'w'] as const;
const wander: MassimAct = (percept, agent) => ({
  type: 'move',
  p: [directions[(agent.step + agent.name.length + percept.energy) % 4]!],
});

async function recordSampleMatch(): Promise<{ store: TranscriptStore; ms: number }> {
  const sample = sampleMassimConfig();
  const config: MassimServerConfig = { ...sample, server: { ...sample.server, waitBetweenSimulations: 0 } };
  const runner = new MassimMatchRunner({
    config,
    teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
    seed: 1,
    recordWorld: true,
  });
  const start = performance.now();
  await runner.run();
  return { store: runner.host.store, ms: performance.now() - start };
}

/** The world snapshot recorded when the percepts of `step` were made (taken after the step before). */
function worldOfStep(store: TranscriptStore, group: number, step: number): MassimWorldAnnotation | undefined {
  const before = store.stepRange(group, step - 1);
  if (!before) return undefined;
  return store
    .annotationsBetween(before.from, before.to)
    .map((annotation) => annotation.data as MassimWorldAnnotation)
    .find((data) => data.kind === 'snapshot' && data.world.step === step);
}

export default async function () {
  const empty = heldBytes();
  const { store, ms: recordMs } = await recordSampleMatch();
  const withStore = heldBytes();
  const size = store.size();
  const messages = store.length;

  // Every message read back as text: the wire text recorded, and how fast the store gives it.
  const { result: characters, ms: readAllMs } = timed(() => {
    let total = 0;
    for (let i = 0; i < messages; i++) total += store.payload(i)?.length ?? 0;
    return total;
  });

  // Scrubbing: random steps of either simulation, with only the store in memory (as in the UI's worker).
  const steps = store.steps();
  const scrubTimes: number[] = [];
  let seed = 7;
  for (let k = 0; k < 300; k++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const { group, step } = steps[seed % steps.length]!;
    const start = performance.now();
    const range = store.stepRange(group, step)!;
    const texts = store.messages(range.from, range.to).map((message) => message.text);
    const world = worldOfStep(store, group, step);
    scrubTimes.push(performance.now() - start);
    if (texts.length === 0 || (step > 0 && !world)) throw new Error(`step ${group}/${step} is incomplete`);
  }
  scrubTimes.sort((a, b) => a - b);
  const percentile = (p: number) =>
    scrubTimes[Math.min(scrubTimes.length - 1, Math.floor(p * scrubTimes.length))]!;

  // Export, streamed from the store.
  let exported = 0;
  const { ms: exportMs } = timed(() => writeTranscriptJson(store, (piece) => (exported += piece.length)));

  // The plain transcript, as importing the exported file gives it (every text a flat string).
  const { result: json, ms: baselineSerialiseMs } = timed(() => serialiseTranscript(store.toTranscript()));
  const { result: plain, ms: parseMs } = timed(() => parseTranscriptJson(json));
  let held: Transcript | undefined = plain;
  const withPlain = heldBytes();
  const plainBytes = withPlain.heap + withPlain.buffers - (withStore.heap + withStore.buffers);
  const { ms: plainSerialiseMs } = timed(() => serialiseTranscript(held!));

  // Appending the live way: phrase numbers (as the host writes them), the book's texts known beforehand.
  const live = new TranscriptStore({ protocol: 'massim' });
  const phraseMap = Int32Array.from({ length: store.phrases.size }, (_, i) =>
    live.phrases.intern(store.phrases.text(i)),
  );
  const sources = Array.from({ length: messages }, (_, i) => {
    const numbers: number[] = [];
    const phrased = store.readPhrases(i, { push: (phrase) => numbers.push(phraseMap[phrase]!) });
    return { message: store.message(i), numbers: phrased ? Int32Array.from(numbers) : undefined };
  });
  const { ms: liveMs } = timed(() => {
    for (const { message, numbers } of sources) {
      if (numbers)
        live.appendPhrased(message.conn, message.dir, message.t, (out) => {
          for (let k = 0; k < numbers.length; k++) out.push(numbers[k]!);
        });
      else live.appendMessage(message);
    }
  });
  const { ms: plainMs } = timed(() => {
    // What a plain transcript costs: one object per message, pushed to an array.
    const plain: TranscriptMessage[] = [];
    for (const message of held!.messages) {
      const { conn, dir, kind, text, framing } = message;
      plain.push({
        index: plain.length,
        t: 0,
        conn,
        dir,
        kind,
        ...(text !== undefined ? { text } : {}),
        ...(framing ? { framing } : {}),
      });
    }
    return plain.length;
  });
  const { result: imported, ms: importMs } = timed(() => TranscriptStore.fromTranscript(held!));
  held = undefined;

  const storeBytes = withStore.heap + withStore.buffers - (empty.heap + empty.buffers);
  printTable('Transcript store: the contest sample match (2 simulations x 750 steps, 40 then 80 agents)', [
    ['what', 'figure'],
    ['messages', messages],
    ['steps', steps.length],
    ['wire text (characters)', `${formatNumber(characters / MB)} M`],
    [
      'recording the match (host, agents, store; in-process trivial policies)',
      `${formatNumber(recordMs / 1000)} s`,
    ],
    ['store: held (heap + array buffers, after GC)', `${formatNumber(storeBytes / MB)} MB`],
    ['  per message', `${formatNumber(storeBytes / messages)} B`],
    ['  payload codes', `${formatNumber(size.codeBytes / MB)} MB`],
    ['  phrase book', `${formatNumber(size.phrases)} phrases, ${formatNumber(size.phraseBytes / MB)} MB`],
    ['  plain texts (deflated when their chunk is full)', `${formatNumber(size.literalBytes / MB)} MB`],
    ['  message columns and indexes', `${formatNumber(size.columnBytes / MB)} MB`],
    ['  world snapshots (packed)', `${formatNumber(size.packedBytes / MB)} MB`],
    ['plain Transcript: held (baseline)', `${formatNumber(plainBytes / MB)} MB`],
    ['  per message', `${formatNumber(plainBytes / messages)} B`],
    ['  store / plain', `${formatNumber(storeBytes / plainBytes)}`],
    [
      'reading every message as text',
      `${formatNumber(readAllMs)} ms (${formatNumber(characters / MB / (readAllMs / 1000))} M characters/s)`,
    ],
    [
      'append, live (phrase numbers, as the host records)',
      `${formatNumber(messages / (liveMs / 1000))} messages/s, ${formatNumber(characters / MB / (liveMs / 1000))} M characters/s`,
    ],
    [
      '  appending the same texts as plain message objects (baseline)',
      `${formatNumber(messages / (plainMs / 1000))} messages/s`,
    ],
    [
      'append, importing plain texts (fromTranscript)',
      `${formatNumber(messages / (importMs / 1000))} messages/s, ${formatNumber(characters / MB / (importMs / 1000))} M characters/s`,
    ],
    ['  imported store held (its size() estimate)', `${formatNumber(estimate(imported) / MB)} MB`],
    ['scrub to a random step (texts + world), median', `${formatNumber(percentile(0.5))} ms`],
    [
      '  95th percentile / max',
      `${formatNumber(percentile(0.95))} ms / ${formatNumber(scrubTimes.at(-1)!)} ms`,
    ],
    [
      'export to Protoplay JSON, streamed from the store',
      `${formatNumber(exportMs)} ms (${formatNumber(exported / MB)} M characters)`,
    ],
    [
      '  serialising the converted transcript (store.toTranscript())',
      `${formatNumber(baselineSerialiseMs)} ms`,
    ],
    ['  serialising the plain transcript (baseline)', `${formatNumber(plainSerialiseMs)} ms`],
    ['  parsing that JSON back (import of a plain file)', `${formatNumber(parseMs)} ms`],
  ]);
}

/** The bytes a store says it holds. */
function estimate(store: TranscriptStore): number {
  const size = store.size();
  return size.codeBytes + size.literalBytes + size.phraseBytes + size.columnBytes + size.packedBytes;
}
