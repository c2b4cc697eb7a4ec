/**
 * Opening an aisys recording as the page's session worker does, without the page: a Protoplay JSON
 * transcript read whole (`readRecording`, then `summarise`: both roles' machines and the reader over every
 * message), and the exchange formats: the `.jsonl` streamed in 1 MiB chunks (`readRecordingInChunks`, the
 * worker's path for a big single file), raw `.http` and HAR read whole. Each is timed at a small size
 * (the baseline) and at 100,000 messages; the ratio of time per message says whether the cost grows
 * linearly (1.0) or faster. CPU time is printed beside the wall time: on a loaded machine it moves less.
 *
 * `AISYS_IMPORT_MESSAGES=N` changes the big size.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { readRecording, readRecordingInChunks } from '../../src/core/session/open-recording';
import type { ImportSummary } from '../../src/core/protocols/session-contract';
import { printTable } from '../lib';
import {
  playAisysExchanges,
  writeAisysExchanges,
  writeAisysTranscript,
  type AisysExchangeFormat,
} from './big-transcript';

const BIG = Number(process.env.AISYS_IMPORT_MESSAGES ?? 100_000);
const CHUNK = 1 << 20;

interface Timing {
  messages: number;
  rounds: number;
  violations: number;
  readMs: number;
  wholeMs: number;
  cpuMs: number;
}

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** The whole path: read (the session is shown from here on), then validated and summed up. */
function openWhole(path: string): Timing {
  const bytes = new Uint8Array(readFileSync(path));
  const cpu = cpuMs();
  const start = performance.now();
  const read = readRecording([{ name: path, bytes }], PROTOCOLS);
  const readMs = performance.now() - start;
  const summary = read.summarise();
  return timing(summary, readMs, performance.now() - start, cpuMs() - cpu);
}

/** The streamed path: the first chunk shows the session, the summary comes once every chunk is read. */
async function openStreamed(path: string): Promise<Timing> {
  const bytes = new Uint8Array(readFileSync(path));
  const cpu = cpuMs();
  const start = performance.now();
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
  }
  const chunked = await readRecordingInChunks(
    { name: path, size: bytes.length, start: bytes.subarray(0, 64 << 10), chunks: chunks() },
    PROTOCOLS,
  );
  if (!chunked) throw new Error(`${path} is not read in chunks`);
  const readMs = performance.now() - start;
  const summary = await chunked.summary;
  return timing(summary, readMs, performance.now() - start, cpuMs() - cpu);
}

function timing(summary: ImportSummary, readMs: number, wholeMs: number, cpu: number): Timing {
  if (summary.protocol !== 'aisys') throw new Error(`read as ${summary.protocol}`);
  return {
    messages: summary.messages,
    rounds: summary.rounds,
    violations: summary.violations.length,
    readMs,
    wholeMs,
    cpuMs: cpu,
  };
}

/** The better of two runs (the first warms the code up). */
async function best(open: () => Timing | Promise<Timing>): Promise<Timing> {
  const first = await open();
  const second = await open();
  return second.wholeMs <= first.wholeMs ? second : first;
}

export default async function () {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-aisys-import-'));
  try {
    const rows: (string | number)[][] = [
      [
        'recording',
        'messages',
        'rounds',
        'violations',
        'read ms',
        'whole ms',
        'CPU ms',
        'µs/message',
        'vs small',
        'CPU µs/message',
        'vs small',
      ],
    ];
    const add = (label: string, small: Timing, big: Timing) => {
      const perMessage = (t: Timing) => (t.wholeMs * 1000) / t.messages;
      const cpuPerMessage = (t: Timing) => (t.cpuMs * 1000) / t.messages;
      rows.push([
        label,
        small.messages,
        small.rounds,
        small.violations,
        small.readMs,
        small.wholeMs,
        small.cpuMs,
        perMessage(small),
        '1 (baseline)',
        cpuPerMessage(small),
        '1 (baseline)',
      ]);
      rows.push([
        label,
        big.messages,
        big.rounds,
        big.violations,
        big.readMs,
        big.wholeMs,
        big.cpuMs,
        perMessage(big),
        (perMessage(big) / perMessage(small)).toFixed(2),
        cpuPerMessage(big),
        (cpuPerMessage(big) / cpuPerMessage(small)).toFixed(2),
      ]);
    };

    const json = async (messages: number) => {
      const path = join(dir, `aisys-${messages}.json`);
      await writeAisysTranscript(path, messages);
      return best(() => openWhole(path));
    };
    add('Protoplay JSON', await json(1000), await json(BIG));

    const exchanges = {
      small: await playAisysExchanges(10_000),
      big: await playAisysExchanges(BIG),
    };
    const formats: [AisysExchangeFormat, string, (path: string) => Timing | Promise<Timing>][] = [
      ['jsonl', '.jsonl, streamed', openStreamed],
      ['http', 'raw .http', openWhole],
      ['har', 'HAR', openWhole],
    ];
    for (const [format, label, open] of formats) {
      const timed = async (size: keyof typeof exchanges) => {
        const path = join(dir, `aisys-${size}.${format}`);
        writeAisysExchanges(path, exchanges[size], format);
        return best(() => open(path));
      };
      add(label, await timed('small'), await timed('big'));
    }
    printTable(
      'aisys import through the session worker path (read, both machines, the reader), best of 2',
      rows,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
