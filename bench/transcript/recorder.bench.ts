/**
 * The one recorder on small sessions: recording the messages of four real rddlsim sessions (the recorded
 * conformance sessions, every message both ways) through `TranscriptRecorder`, which writes into a
 * transcript store, in the three ways sessions use it:
 * - with the plain transcript asked for (the playground's sessions, whose views read it);
 * - store only (the plain transcript never asked for);
 * - streamed to a sink as JSON, keeping nothing (`run --transcript FILE`).
 * The messages are the four sessions ten times over (a long playground session). The baseline, measured
 * in the same run, is what recording cost before there was a store behind the recorder: one message object
 * per message pushed to a plain transcript (and, streamed, each object stringified for the sink).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importRddlsimRecordFile } from '../../src/core/protocols/rddlsim/recording-formats';
import type { Direction, TranscriptMessage } from '../../src/core/transcript/model';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { formatNumber, measureRate, printTable, type Rate } from '../lib';

const RECORDINGS = resolve(import.meta.dirname, '../../../shared/conformance/rddlsim');
const SESSIONS = [
  'sysadmin_inst_mdp__1',
  'sysadmin_inst_pomdp__1',
  'elevators_inst_mdp__1',
  'game_of_life_inst_mdp__1',
];

interface Wire {
  conn: string;
  dir: Direction;
  kind: TranscriptMessage['kind'];
  text: string | undefined;
}

/** Every message of the four recorded sessions, in order. */
function recordedMessages(): Wire[] {
  return SESSIONS.flatMap((name) =>
    importRddlsimRecordFile(
      new Uint8Array(readFileSync(resolve(RECORDINGS, `${name}.transcript`))),
    ).messages.map(({ conn, dir, kind, text }) => ({ conn, dir, kind, text })),
  );
}

/** Records every message through the recorder, as a session does. */
function recordThrough(recorder: TranscriptRecorder, messages: readonly Wire[]): number {
  for (const { conn, dir, kind, text } of messages) {
    if (kind === 'data') recorder.text(conn, dir, text ?? '', 'nul');
    else recorder.event(conn, dir, kind, text);
  }
  return recorder.messageCount;
}

/** The baseline: a message object per message pushed to a plain list (and told to `sink` as JSON). */
function recordPlain(messages: readonly Wire[], now: () => number, sink?: (json: string) => void): number {
  const list: TranscriptMessage[] = [];
  const startedAt = now();
  for (const { conn, dir, kind, text } of messages) {
    const message: TranscriptMessage = {
      index: list.length,
      t: now() - startedAt,
      conn,
      dir,
      kind,
      ...(text !== undefined ? { text } : {}),
      ...(kind === 'data' ? { framing: 'nul' as const } : {}),
    };
    if (sink) sink(JSON.stringify(message));
    else list.push(message);
  }
  return list.length;
}

export default async function () {
  // The four sessions ten times over: a long playground session (batches long enough to time).
  const recorded = recordedMessages();
  const messages = Array.from({ length: 10 }, () => recorded).flat();
  const characters = messages.reduce((total, m) => total + (m.text?.length ?? 0), 0);
  const now = Date.now;
  let written = 0;
  const sink = { messageJson: (json: string) => (written += json.length), annotationJson: () => undefined };
  const options = { repeats: 9 };
  const rows: [string, Rate, Rate][] = [
    [
      'plain transcript asked for (playground)',
      await measureRate(
        'recorder',
        messages.length,
        () => {
          const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now });
          void recorder.transcript;
          return recordThrough(recorder, messages);
        },
        options,
      ),
      await measureRate('plain', messages.length, () => recordPlain(messages, now), options),
    ],
    [
      'store only',
      await measureRate(
        'recorder',
        messages.length,
        () => recordThrough(new TranscriptRecorder({ protocol: 'rddlsim', now }), messages),
        options,
      ),
      await measureRate('plain', messages.length, () => recordPlain(messages, now), options),
    ],
    [
      'streamed to a sink, nothing kept (CLI --transcript)',
      await measureRate(
        'recorder',
        messages.length,
        () =>
          recordThrough(new TranscriptRecorder({ protocol: 'rddlsim', now, sink, keep: false }), messages),
        options,
      ),
      await measureRate(
        'plain',
        messages.length,
        () => recordPlain(messages, now, (json) => (written += json.length)),
        options,
      ),
    ],
  ];
  printTable(
    `Recording small sessions: ${formatNumber(messages.length)} messages (${formatNumber(characters / 1e6)} M characters) of 4 real rddlsim sessions, 10 times`,
    [
      [
        'way',
        'recorder (messages/s)',
        'plain objects, baseline (messages/s)',
        'recorder / baseline',
        'recorder CPU / baseline CPU',
      ],
      ...rows.map(([label, recorder, plain]) => [
        label,
        formatNumber(recorder.opsPerSecond),
        formatNumber(plain.opsPerSecond),
        formatNumber(recorder.opsPerSecond / plain.opsPerSecond),
        formatNumber((recorder.cpuSeconds ?? NaN) / (plain.cpuSeconds ?? NaN)),
      ]),
    ],
  );
  if (written < 0) console.log(written);
}
