/**
 * Importing a Protoplay JSON transcript cut short (a crashed run's `--transcript` file), through the import
 * every reader uses (`importRecording`: the page's import worker and `protoplay inspect`): a file of 100,000
 * rddlsim messages (about 40 MB) cut at nine tenths, next to the same file whole in the same run. The cut
 * file is parsed by `JSON.parse` (which fails at the end) and then salvaged item by item.
 */
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { importRecording } from '../../src/core/transcript/import';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { median, printTable } from '../lib';

const MESSAGES = 100_000;
const RUNS = 3;

function bigTranscriptJson(): string {
  const recorded = loadRecording('sysadmin_inst_pomdp__1').messages.filter((m) => m.text !== undefined);
  let t = 0;
  const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now: () => (t += 1) });
  recorder.addConnection('session-1', 'session 1');
  for (let i = 0; i < MESSAGES; i++) {
    const message = recorded[i % recorded.length]!;
    recorder.text('session-1', message.dir, message.text!);
  }
  return serialiseTranscript(recorder.transcript);
}

function timeImport(name: string, bytes: Uint8Array): { ms: number; messages: number; problems: number } {
  const times: number[] = [];
  let messages = 0;
  let problems = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const result = importRecording([{ name, bytes }], PROTOCOLS);
    times.push(performance.now() - start);
    messages = result.transcripts[0]?.messages.length ?? 0;
    problems = result.problems.length;
  }
  return { ms: median(times), messages, problems };
}

export default async function salvageBench(): Promise<void> {
  const text = bigTranscriptJson();
  const encoder = new TextEncoder();
  const whole = encoder.encode(text);
  const cut = encoder.encode(text.slice(0, Math.floor(text.length * 0.9)));
  const sound = timeImport('whole.json', whole);
  const salvaged = timeImport('cut.json', cut);
  const mb = (bytes: Uint8Array) => bytes.length / 1e6;
  printTable(`Protoplay JSON import, ${MESSAGES.toLocaleString('en-US')} messages, median of ${RUNS}`, [
    ['file', 'MB', 'messages kept', 'problems', 'ms', 'MB/s', 'ms vs whole'],
    [
      'whole (baseline)',
      mb(whole),
      sound.messages,
      sound.problems,
      sound.ms,
      mb(whole) / (sound.ms / 1000),
      '1.00',
    ],
    [
      'cut at 9/10 (salvaged)',
      mb(cut),
      salvaged.messages,
      salvaged.problems,
      salvaged.ms,
      mb(cut) / (salvaged.ms / 1000),
      (salvaged.ms / sound.ms).toFixed(2),
    ],
  ]);
  await Promise.resolve();
}
