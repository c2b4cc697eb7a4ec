/**
 * Throughput of the rddlsim codec on the turn messages of the recorded real sessions, each next to a
 * baseline measured in the same run: parsing (baseline: saxes alone, no handlers and no tree), serialising
 * (baseline: JSON.stringify of the same typed messages) and splitting the server's byte stream into
 * frames (baseline: a bare indexOf(0) scan). Parsing is measured on the recorded texts, which take the
 * proved fast path, and on the same texts with an empty comment inside the root, which the fast path
 * refuses after trying, so they show what the saxes path costs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SaxesParser } from 'saxes';
import { parseServerMessage, serialiseServerMessage } from '../../src/core/protocols/rddlsim/codec';
import { ServerStreamSplitter, encodeFrame } from '../../src/core/protocols/rddlsim/framing';
import type { RddlsimServerMessage } from '../../src/core/protocols/rddlsim/messages';
import { parseXml } from '../../src/core/protocols/rddlsim/xml';
import { importRddlsimRecordFile } from '../../src/core/protocols/rddlsim/recording-formats';
import { measureRate, printTable, type Rate } from '../lib';

const RECORDINGS = resolve(import.meta.dirname, '../../../shared/conformance/rddlsim');
const SESSIONS = [
  'sysadmin_inst_mdp__1',
  'sysadmin_inst_pomdp__1',
  'elevators_inst_mdp__1',
  'game_of_life_inst_mdp__1',
];

/** Every turn message the real server sent in the four recorded sessions. */
function recordedTurns(): string[] {
  return SESSIONS.flatMap((name) => {
    const transcript = importRddlsimRecordFile(
      new Uint8Array(readFileSync(resolve(RECORDINGS, `${name}.transcript`))),
    );
    return transcript.messages
      .filter((m) => m.dir === 's2c' && m.text?.includes('<turn>'))
      .map((m) => m.text!);
  });
}

export default async function () {
  const turns = recordedTurns();
  const bytes = turns.reduce((total, text) => total + text.length, 0);
  const mb = bytes / 1e6;
  const repeat = 20;
  const perBatch = turns.length * repeat;
  console.log(
    `${turns.length} recorded turn messages, ${(bytes / turns.length).toFixed(0)} bytes on average`,
  );

  const raw = new SaxesParser();
  const saxes = await measureRate('saxes alone (no tree)', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const text of turns) raw.write(text).close();
  });
  const tree = await measureRate('element tree (parseXml)', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const text of turns) parseXml(text);
  });
  const typed = await measureRate('parseServerMessage (fast path)', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const text of turns) parseServerMessage(text);
  });
  const commented = turns.map((text) => text.replace('<turn>', '<turn><!---->'));
  const bySaxes = await measureRate('parseServerMessage (saxes path)', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const text of commented) parseServerMessage(text);
  });

  const messages: RddlsimServerMessage[] = turns.map((text) => parseServerMessage(text));
  const json = await measureRate('JSON.stringify', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const message of messages) JSON.stringify(message);
  });
  const serialise = await measureRate('serialiseServerMessage', perBatch, () => {
    for (let r = 0; r < repeat; r++) for (const message of messages) serialiseServerMessage(message);
  });

  const stream = concat(turns.map((text) => encodeFrame(text, 'nul')));
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < stream.length; start += 1460) chunks.push(stream.subarray(start, start + 1460));
  const scan = await measureRate('indexOf(0) scan', turns.length, () => {
    let count = 0;
    for (const chunk of chunks) for (let i = chunk.indexOf(0); i >= 0; i = chunk.indexOf(0, i + 1)) count++;
    return count;
  });
  const split = await measureRate('ServerStreamSplitter', turns.length, () => {
    const splitter = new ServerStreamSplitter();
    let count = 0;
    for (const chunk of chunks) count += splitter.push(chunk).length;
    return count;
  });

  const row = (rate: Rate, baseline: Rate) => [
    rate.label,
    rate.opsPerSecond,
    1e6 / rate.opsPerSecond,
    (rate.opsPerSecond * mb) / turns.length,
    `${(rate.opsPerSecond / baseline.opsPerSecond).toFixed(2)}x`,
  ];
  printTable('Parsing recorded turns (ratio against saxes alone)', [
    ['', 'messages/s', 'µs/message', 'MB/s', 'vs saxes'],
    row(saxes, saxes),
    row(tree, saxes),
    row(typed, saxes),
    row(bySaxes, saxes),
  ]);
  printTable('Serialising the same turns (ratio against JSON.stringify)', [
    ['', 'messages/s', 'µs/message', 'MB/s', 'vs JSON'],
    row(json, json),
    row(serialise, json),
  ]);
  printTable('Splitting the server byte stream in 1460-byte reads (ratio against a bare scan)', [
    ['', 'messages/s', 'µs/message', 'MB/s', 'vs scan'],
    row(scan, scan),
    row(split, scan),
  ]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}
