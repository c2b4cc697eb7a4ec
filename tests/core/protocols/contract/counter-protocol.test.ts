/**
 * A protocol that exists only in the tests (tests/support/counter-protocol) goes through the generic layers
 * with nothing added outside its folder: detection, import, validation with located violations, reading
 * for the views, and a session over its own sans-IO host and client.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import { detectFormats, importRecording } from '../../../../src/core/transcript/import';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { driveClient } from '../../../../src/core/session/client-driver';
import { playInMemory } from '../../../../src/core/session/in-memory-play';
import { counterClient, counterHost, type CounterObservation } from '../../../support/counter-protocol/host';
import { counterProtocol } from '../../../support/counter-protocol/protocol';
import { serialiseTranscript } from '../../../../src/core/transcript/json-format';

const protocols = [...PROTOCOLS, counterProtocol];
const encoder = new TextEncoder();
const log = (text: string) => [{ name: 'game.log', bytes: encoder.encode(text) }];

const GAME = [
  '< {"type":"start","target":3}',
  '< {"type":"state","value":0,"reward":0}',
  '> {"type":"add","amount":2}',
  '< {"type":"state","value":2,"reward":2}',
  '> {"type":"add","amount":1}',
  '< {"type":"end","total":3}',
].join('\n');

describe('a protocol registered through the same list', () => {
  it('is detected among every registered format, and imported', () => {
    expect(detectFormats(log(GAME), protocols)[0]).toMatchObject({
      protocol: 'counter',
      format: 'counter-log',
    });
    const result = importRecording(log(GAME), protocols);
    expect(result.problems).toEqual([]);
    expect(result.transcripts).toHaveLength(1);
    expect(result.transcripts[0]!.messages).toHaveLength(6);
  });

  it('recognises several sessions in one file, and locates unreadable lines', () => {
    const result = importRecording(log(`${GAME}\nthis is noise\n${GAME}`), protocols);
    expect(result.transcripts).toHaveLength(2);
    expect(result.problems).toEqual([
      { file: 'game.log', line: 7, message: 'not a "> " or "< " line: this is noise' },
    ]);
  });

  it('is validated with its own machines: a sound game passes, a broken one gives a located violation', () => {
    const sound = importRecording(log(GAME), protocols).transcripts[0]!;
    expect(validateTranscript(sound, counterProtocol)).toEqual({ checked: true, violations: [] });
    const broken = GAME.replace('> {"type":"add","amount":1}', '> {"type":"subtract","amount":1}');
    const { violations } = validateTranscript(
      importRecording(log(broken), protocols).transcripts[0]!,
      counterProtocol,
    );
    expect(violations[0]).toMatchObject({
      index: 4,
      conn: 'game-1',
      role: 'server',
      rule: 'counter.add.expected',
      expected: 'add',
      got: 'subtract',
    });
  });

  it('is read for the views: rounds with rewards, turns with what the agent saw', () => {
    const reader = counterProtocol.createReader();
    reader.append(importRecording(log(GAME), protocols).transcripts[0]!.messages, []);
    expect(reader.rounds).toEqual([{ round: 1, stepRewards: [2], total: 3, endIndex: 5 }]);
    expect(reader.turns.map((turn) => turn.observed[0]!.value)).toEqual(['0', '2']);
    expect(reader.messages.map((row) => row.type)).toEqual(['start', 'state', 'add', 'state', 'add', 'end']);
    // The page reads a turn's fluents from its message alone, with a fresh reader.
    const alone = counterProtocol.createReader();
    alone.append([importRecording(log(GAME), protocols).transcripts[0]!.messages[3]!], []);
    expect(alone.turns.map((turn) => turn.observed)).toEqual([[{ name: 'value', args: [], value: '2' }]]);
  });

  it('plays through its sans-IO host and client, and the recorded transcript round-trips through Protoplay JSON', async () => {
    const recorder = new TranscriptRecorder({ protocol: 'counter', now: () => 0 });
    const asked: { hook: string; site: unknown }[] = [];
    const client = driveClient(counterClient(), async (request) => {
      asked.push({ hook: request.hook, site: request.site });
      const { value, target } = request.args[0] as CounterObservation;
      return { ok: true, value: target - value >= 2 ? 2 : 1, logs: [], ms: 0 };
    });
    await playInMemory({ protocol: counterProtocol, host: counterHost(5, 2), client, recorder }).done;
    const { transcript } = recorder;
    // Two games to 5 by 2, 2, 1: three decisions each, asked with where the session is.
    expect(asked).toHaveLength(6);
    expect(asked[3]).toEqual({ hook: 'act', site: { round: 2, turn: 1 } });
    expect(validateTranscript(transcript, counterProtocol).violations).toEqual([]);
    const reimported = importRecording(
      [{ name: 't.json', bytes: encoder.encode(serialiseTranscript(transcript)) }],
      protocols,
    );
    expect(reimported.transcripts[0]).toEqual(transcript);
    const reader = counterProtocol.createReader();
    reader.append(transcript.messages, []);
    expect(reader.rounds.map((round) => [round.total, round.stepRewards])).toEqual([
      [5, [2, 2, 1]],
      [5, [2, 2, 1]],
    ]);
  });

  it('a failed decision ends the game with the reason, and is recorded', async () => {
    const recorder = new TranscriptRecorder({ protocol: 'counter', now: () => 0 });
    const client = driveClient(counterClient(), async () => ({
      ok: false,
      fault: { kind: 'call', message: 'act threw' },
      logs: [],
      ms: 0,
    }));
    await playInMemory({ protocol: counterProtocol, host: counterHost(5), client, recorder }).done;
    const closes = recorder.transcript.messages.filter((m) => m.kind === 'close');
    expect(closes[0]).toMatchObject({ dir: 'c2s', text: 'the policy failed: act threw' });
    expect(recorder.transcript.messages.some((m) => m.dir === 'c2s' && m.kind === 'data')).toBe(false);
  });
});
