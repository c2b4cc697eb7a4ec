/**
 * The policy thread of the match benchmark's "shared-memory ring" bound: it spins on a shared counter
 * instead of sleeping, reads each request-action as soon as the host has written its phrase numbers (with
 * the same `PhraseJsonReader` the playground's policy workers use) and answers with the benchmark's trivial
 * move, counting the percepts it read and their energies. The shared buffers: `RingBuffers` in
 * match.bench.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PhraseJsonReader } from '../../src/core/transcript/store/phrase-json';
import type { MassimRequestAction } from '../../src/core/protocols/massim/messages';
import type { RingBuffers } from './match.bench';

const { buffers, agents } = workerData as { buffers: RingBuffers; agents: string[] };
const control = new Int32Array(buffers.control);
const requests = new Int32Array(buffers.requests);
const phrases = new Int32Array(buffers.phrases);
const texts = new Uint16Array(buffers.texts);
const textEnds = new Int32Array(buffers.textEnds);
const actions = new Int32Array(buffers.actions);
const book: string[] = [];
const reader = new PhraseJsonReader(book);
const utf16 = new TextDecoder('utf-16le');
let consumed = 0;

parentPort!.postMessage('ready');
for (;;) {
  let written: number;
  while ((written = Atomics.load(control, 0)) === consumed) {
    if (Atomics.load(control, 3) === 1) process.exit(0);
  }
  const published = Atomics.load(control, 2);
  for (let phrase = book.length; phrase < published; phrase++)
    book.push(utf16.decode(texts.subarray(phrase === 0 ? 0 : textEnds[phrase - 1]!, textEnds[phrase]!)));
  const stepBase = Atomics.load(control, 4);
  for (; consumed < written; consumed++) {
    const slot = consumed - stepBase;
    const agent = requests[3 * slot]!;
    const { content } = reader.parse(
      phrases,
      requests[3 * slot + 1]!,
      requests[3 * slot + 2]!,
    ) as MassimRequestAction;
    const agentEnergy = content.percept.energy;
    control[5] = control[5]! + 1;
    control[6] = control[6]! + agentEnergy;
    actions[slot] = (content.step + agents[agent]!.length + agentEnergy) % 4;
    Atomics.store(control, 1, consumed + 1);
  }
}
