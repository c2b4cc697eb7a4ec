/**
 * The HTTP log's detail of one exchange (`ask('exchange', [request])`), asked of a 100,000-message aisys
 * transcript shown as an opened recording: through the views' path (the runner's shown transcript, whose
 * response index is read once), and the whole scan it replaced (every message after the request looked
 * at), on the same requests in the same run. Two transcripts: a session played here (each response close
 * after its request) and the same exchanges with every response lost (the scan reads to the end at every
 * question). Figures are the median time a question (the first question, which reads the transcript
 * into the run book and the index, is printed apart).
 *
 * `AISYS_DETAIL_MESSAGES=N` changes the size.
 */
import { aisysProtocol } from '../../src/core/protocols/aisys';
import { exchangeDetailByScan } from '../../src/core/protocols/aisys/playground/questions';
import type { Transcript, TranscriptMessage } from '../../src/core/transcript/model';
import { median, printTable, showingServices } from '../lib';
import { playAisysExchanges } from './big-transcript';

const MESSAGES = Number(process.env.AISYS_DETAIL_MESSAGES ?? 100_000);
/** Requests asked about, spread evenly over the transcript. */
const QUESTIONS = 200;

const services = showingServices();

function transcriptOf(messages: TranscriptMessage[]): Transcript {
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'aisys',
    startedAt: 0,
    meta: {},
    connections: [{ id: 'client', label: 'client' }],
    messages: messages.map((message, index) => ({ ...message, index })),
    annotations: [],
  };
}

/** Times `ask` on each request; the median in ms. */
function timed(requests: readonly number[], ask: (request: number) => unknown): number {
  const times = requests.map((request) => {
    const start = performance.now();
    ask(request);
    return performance.now() - start;
  });
  return median(times);
}

export default async function run(): Promise<void> {
  const played = (await playAisysExchanges(MESSAGES)).slice(0, MESSAGES);
  const lost = played.filter((message) => message.dir === 'c2s');
  // As many messages as the played session, every one a request whose response never came.
  while (lost.length < played.length) lost.push(...lost.slice(0, played.length - lost.length));
  const runner = await aisysProtocol.playground!.loadRunner();
  const rows: (string | number)[][] = [
    ['transcript', 'messages', 'first question ms', 'scan ms/question', 'index ms/question', 'ratio'],
  ];
  for (const [label, messages] of [
    ['played session', played],
    ['every response lost', lost.map((m, i) => ({ ...m, http: { ...m.http!, exchange: i } }))],
  ] as const) {
    const transcript = transcriptOf(messages);
    const requests = transcript.messages.flatMap((m, i) => (m.dir === 'c2s' ? [i] : []));
    const asked = Array.from(
      { length: QUESTIONS },
      (_, q) => requests[Math.floor((q * requests.length) / QUESTIONS)]!,
    );
    const shown = runner.show({ transcript, origin: 'imported', name: label }, services);
    const first = performance.now();
    const answer = shown.ask('exchange', [asked[0]]);
    const firstMs = performance.now() - first;
    if (JSON.stringify(answer) !== JSON.stringify(exchangeDetailByScan(transcript, asked[0]!)))
      throw new Error(`${label}: the index and the scan disagree`);
    const scanMs = timed(asked, (request) => exchangeDetailByScan(transcript, request));
    const indexMs = timed(asked, (request) => shown.ask('exchange', [request]));
    shown.abandon();
    rows.push([
      label,
      transcript.messages.length,
      firstMs,
      scanMs,
      indexMs,
      `${(scanMs / indexMs).toFixed(0)}x`,
    ]);
  }
  printTable(`aisys exchange detail: ${QUESTIONS} requests asked about, median time a question`, rows);
}
