import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  encodeConnect,
  encodeReply,
  encodeRequest,
  gamaProtocol,
  GamaTranscriptReader,
  readGamaMessage,
  writeGamaFrameLog,
  type GamaMessageReading,
} from '../../../../src/core/protocols/gama';
import {
  keptOutlines,
  KEPT_OUTLINES,
  outlineOfMessage,
  readGamaOutline,
} from '../../../../src/core/protocols/gama/outline';
import type { Protocol } from '../../../../src/core/protocols/contract';
import type { ProtocolMachine } from '../../../../src/core/protocols/machine';
import { Rng } from '../../../../src/core/random';
import { openRecording, readRecordingInChunks } from '../../../../src/core/session/open-recording';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { playRecorded } from './support';

/** What `readGamaOutline` must say: `readGamaMessage`'s reading without the state. */
function expectedOutline(reading: GamaMessageReading) {
  if (!reading.ok || reading.message.type !== 'request') return reading;
  const { id, shape, reward, terminal } = reading.message;
  return { ok: true, message: { type: 'request', id, shape, reward, terminal } };
}

const grid = (rows: number, columns: number, seed: number) => {
  const rng = new Rng(seed);
  return Array.from({ length: rows }, () => Array.from({ length: columns }, () => rng.nextInt(5)));
};

/** Requests in GAMA's form, and in other spellings of the same JSON. */
const READABLE = [
  encodeRequest('Scav. 1', grid(21, 11, 1), 0),
  encodeRequest('Scav. 12', grid(3, 4, 2), 5, true),
  encodeRequest('Scav. 2', [grid(5, 5, 3), grid(5, 5, 4), grid(5, 5, 5)], 10),
  encodeRequest('Scav. 3', [[4]], -2.5),
  encodeRequest('Scav. 4', [[1, 2]], 1e3),
  // Brackets before the state's do not mislead the guess of its row length.
  encodeRequest('Scav[5], state: [ [ 1, 2', [[0]], 0),
  encodeRequest('Ünïcödé ✓', [[0, 0]], 0),
  '{ "id": "Scav. 1", "request": { "state": [ [ ], [ ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ [ ] ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1.5, -0, 2e-3, 4E+2 ] ], "reward": null } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": -0 } }',
  '{"id":"Scav. 1","request":{"state":[[1,2],[3,4]],"reward":1.25,"terminal":true}}',
  ' \t{\n"id" : "Scav. 1" ,\r\n "request" :{ "state":\n[ [1\t,2 ] ,[ 3,4]\n]\n, "reward" :0 } }\n ',
  JSON.stringify({ id: 'Scav. 9', request: { state: grid(4, 3, 6), reward: 7 } }, null, '\t'),
  // Rows too long for an expression of their own.
  encodeRequest('Scav. 10', grid(2, 5000, 7), 1),
];

/** Texts the expression must leave to `readGamaMessage`: other spellings, and every kind of wrong. */
const LEFT_TO_JSON = [
  '{ "scenario": "C_basic_single_entrance_region" }',
  encodeConnect('Scav. 1'),
  '{ "request": { "state": [ [ 1 ] ], "reward": 0 }, "id": "Scav. 1" }',
  '{ "id": "Scav. 1", "request": { "reward": 0, "state": [ [ 1 ] ] } }',
  '{ "id": "Scav. 1", "connect": true, "request": { "state": [ [ 1 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 0, "extra": 1 } }',
  '{ "id": "Scav\\u0020 1", "request": { "state": [ [ 1 ] ], "reward": 0 } }',
  '{ "id": "Scav.\t1", "request": { "state": [ [ 1 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 1e400 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": "5" } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 0, "terminal": false } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ] } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1, 2 ], [ 3 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ [ 1 ] ], [ [ 1 ], [ 2 ] ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ [ 1, 2 ] ], [ [ 1 ] ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ [ 1 ] ], [ 1 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ], [ [ 1 ] ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ 1, 2 ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ "1" ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 01 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1. ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ .5 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ +1 ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ - ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1e ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ NaN ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1, ] ], "reward": 0 } }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 0 }, }',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 0 } } x',
  '{ "id": "Scav. 1", "request": { "state": [ [ 1 ] ], "reward": 0 }',
  '{ "id": 1, "request": { "state": [ [ 1 ] ], "reward": 0 } }',
  '[ { "id": "Scav. 1" } ]',
  'Scav. 1;idle',
  '',
];

describe('readGamaOutline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says what readGamaMessage says of requests in any spelling, without the state', () => {
    for (const text of READABLE) {
      const outline = readGamaOutline(text);
      expect(outline.ok, text).toBe(true);
      expect(outline, text).toEqual(expectedOutline(readGamaMessage(text)));
    }
  });

  it('says what readGamaMessage says of everything else, problems and columns included', () => {
    for (const text of LEFT_TO_JSON)
      expect(readGamaOutline(text), text).toEqual(expectedOutline(readGamaMessage(text)));
    expect(LEFT_TO_JSON.filter((text) => !readGamaOutline(text).ok).length).toBeGreaterThan(25);
  });

  it('agrees with readGamaMessage on thousands of damaged requests', () => {
    const rng = new Rng(16);
    const pieces = ['[', ']', '{', '}', ',', ':', '"', ' ', '\n', '0', '1', '-', '.', 'e', '\\', 'true', 'x'];
    let readable = 0;
    for (let i = 0; i < 4000; i++) {
      let text = READABLE[rng.nextInt(READABLE.length)]!;
      for (let edits = 1 + rng.nextInt(2); edits > 0; edits--) {
        const at = rng.nextInt(text.length + 1);
        const piece = pieces[rng.nextInt(pieces.length)]!;
        const cut = rng.nextInt(3);
        text = text.slice(0, at) + (cut === 2 ? '' : piece) + text.slice(at + (cut === 0 ? 0 : 1));
      }
      const outline = readGamaOutline(text);
      if (outline.ok) readable++;
      expect(outline, text).toEqual(expectedOutline(readGamaMessage(text)));
    }
    // Both kinds were met: the damage often breaks the JSON, sometimes only a number or a space.
    expect(readable).toBeGreaterThan(100);
    expect(readable).toBeLessThan(3900);
  });

  it('reads a request in GAMA form without JSON.parse', () => {
    const parse = vi.spyOn(JSON, 'parse');
    readGamaOutline(READABLE[0]!);
    readGamaOutline(READABLE[2]!);
    expect(parse).not.toHaveBeenCalled();
    readGamaOutline(LEFT_TO_JSON[2]!);
    expect(parse).toHaveBeenCalledTimes(1);
  });
});

const message = (index: number, text: string, dir: 'c2s' | 's2c' = 'c2s'): TranscriptMessage => ({
  index,
  conn: 'c',
  dir,
  t: 0,
  kind: 'data',
  text,
});

describe('outlineOfMessage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a message once, and never gives one message the outline of another', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const connect = message(0, encodeConnect('Scav. 1'));
    const first = outlineOfMessage(connect);
    expect(outlineOfMessage(connect)).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    // Another message with the same text is read for itself.
    const twin = message(1, encodeConnect('Scav. 1'));
    expect(outlineOfMessage(twin)).toEqual(first);
    expect(parse).toHaveBeenCalledTimes(2);
    // Interleaved messages each get their own.
    const requests = Array.from({ length: 50 }, (_, i) => message(i, encodeRequest(`Scav. ${i}`, [[i]], i)));
    for (const request of requests) outlineOfMessage(request);
    for (const [i, request] of requests.entries())
      expect(outlineOfMessage(request)).toMatchObject({ ok: true, message: { id: `Scav. ${i}`, reward: i } });
    // A message whose text was changed is read again.
    connect.text = '{ "id": "Scav. 1", "connect": false }';
    expect(outlineOfMessage(connect)).toEqual(readGamaMessage(connect.text));
  });

  it('keeps a bounded number of outlines', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const oldest = message(0, encodeConnect('Scav. 0'));
    outlineOfMessage(oldest);
    for (let i = 1; i <= KEPT_OUTLINES + 10; i++)
      outlineOfMessage(message(i, encodeRequest('Scav. 1', [[i]], 0)));
    expect(keptOutlines()).toBe(KEPT_OUTLINES);
    parse.mockClear();
    outlineOfMessage(oldest);
    expect(parse).toHaveBeenCalledTimes(1);
  });
});

/** A GAMA protocol whose machines and reader each get a copy of every message: nothing is shared. */
function unsharedGama(): Protocol {
  const copying = (machine: ProtocolMachine<unknown>): ProtocolMachine<unknown> => ({
    ...machine,
    accept: (state, m) => machine.accept(state, { ...m }),
  });
  class CopyingReader extends GamaTranscriptReader {
    override append(
      messages: readonly TranscriptMessage[],
      annotations: Parameters<GamaTranscriptReader['append']>[1],
    ) {
      super.append(
        messages.map((m) => ({ ...m })),
        annotations,
      );
    }
  }
  return {
    ...gamaProtocol,
    machines: gamaProtocol.machines.map(copying),
    createReader: () => new CopyingReader(),
  };
}

/** A frame log of two episodes, damaged at random places in every way the machines judge. */
async function damagedFrameLog(): Promise<Uint8Array> {
  let n = 0;
  const { transcript } = await playRecorded(() => (n++ % 4 === 0 ? 'face_left' : 'move_ahead'), {
    scenario: 'C',
    maxCycles: 40,
    episodes: 2,
  });
  const rng = new Rng(7);
  const lines = writeGamaFrameLog(transcript).split('\n');
  const damaged: string[] = [];
  for (const line of lines) {
    const roll = rng.nextInt(100);
    const fromGama = line.startsWith('{');
    if (roll === 0) continue;
    else if (roll === 1) damaged.push(line, line);
    else if (roll === 2 && fromGama) damaged.push(line.slice(0, 1 + rng.nextInt(line.length - 1)));
    else if (roll === 3 && !fromGama && line.includes(';')) damaged.push(`${line.split(';')[0]};dance`);
    else if (roll === 4 && !fromGama && line.includes(';')) damaged.push(encodeReply('Scav. 99', 'idle'));
    else if (roll === 5 && fromGama) damaged.push(line.replace('"reward": 0', '"reward": "0"'));
    else if (roll === 6 && fromGama) damaged.push(line.replace('[ 0,', '[ 0, 1,'));
    else if (roll === 7 && fromGama) damaged.push(line.replace(' } }', ', "terminal": true } }'));
    else if (roll === 8) damaged.push('{ "scenario": "B_open" }');
    else if (roll === 9 && fromGama) damaged.push(line.replace('"id": "Scav. ', '"id": "Scav\\u0020'));
    else if (roll === 10 && !fromGama) damaged.push('idle');
    else damaged.push(line);
  }
  return new TextEncoder().encode(damaged.join('\n'));
}

describe('sharing outlines changes nothing', () => {
  it('finds the same violations, problems and rounds as machines and reader reading every message themselves', async () => {
    const bytes = await damagedFrameLog();
    const input = { name: 'damaged.gamalog', bytes };
    const shared = openRecording([input], [gamaProtocol]).summary;
    const unshared = openRecording([input], [unsharedGama()]).summary;
    expect(shared).toEqual(unshared);
    const chunked = await readRecordingInChunks(
      {
        name: input.name,
        size: bytes.length,
        start: bytes.subarray(0, 65536),
        chunks: (async function* () {
          for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
        })(),
      },
      [gamaProtocol],
    );
    expect(await chunked!.summary).toEqual(unshared);
    // The damage reaches the machines in many ways.
    const rules = new Set(unshared.violations.map((v) => v.rule));
    expect(rules.size).toBeGreaterThanOrEqual(8);
    expect(unshared.problems.length).toBeGreaterThan(0);
    expect(unshared.rounds).toBeGreaterThan(2);
  });

  it('gives the reader the same rows, rounds and turns', async () => {
    const bytes = await damagedFrameLog();
    const transcript = openRecording([{ name: 'damaged.gamalog', bytes }], [gamaProtocol]).transcript;
    const shared = gamaProtocol.createReader();
    shared.append(transcript.messages, []);
    const unshared = unsharedGama().createReader();
    unshared.append(transcript.messages, []);
    expect(shared.messages).toEqual(unshared.messages);
    expect(shared.rounds).toEqual(unshared.rounds);
    const turns = (reader: typeof shared) => reader.turns.map((t) => [t.index, t.round, t.turn, t.reward]);
    expect(turns(shared)).toEqual(turns(unshared));
    expect(shared.messages.filter((row) => row.unreadable !== undefined).length).toBeGreaterThan(5);
  });
});
