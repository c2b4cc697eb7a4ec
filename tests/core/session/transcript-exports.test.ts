/**
 * The exports besides the JSON, for every protocol: the rewards as CSV (as its reader reads them) and the
 * raw bytes of one direction, one file per connection; and the replay answer that asks for a choice.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, findProtocol } from '../../../src/core/protocols/registry';
import { answerReplay } from '../../../src/core/session/replay-answer';
import { exportTranscriptFiles, rewardsCsv } from '../../../src/core/session/transcript-exports';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';

describe('rewardsCsv', () => {
  it('writes one line per step with the cumulative reward and the total the server reported', () => {
    expect(
      rewardsCsv([
        { round: 1, stepRewards: [1, -0.5], total: 0.5 },
        { round: 2, stepRewards: [2] },
      ]),
    ).toBe('round,step,reward,cumulative,round_total\n1,1,1,1,0.5\n1,2,-0.5,0.5,0.5\n2,1,2,2,\n');
  });
});

describe('exportTranscriptFiles', () => {
  it('gives the raw streams of one direction and the rewards of a MASSim recording', () => {
    const massim = findProtocol('massim')!;
    const recorder = new TranscriptRecorder({ protocol: 'massim', now: () => 0 });
    recorder.text(
      'agentA1.conn1',
      'c2s',
      '{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}',
      'nul',
    );
    recorder.text('agentA1.conn1', 's2c', '{"type":"auth-response","content":{"result":"ok"}}', 'nul');
    const sent = exportTranscriptFiles(recorder.transcript, massim, 'c2s');
    expect(sent.map((f) => f.fileName)).toEqual(['agentA1.conn1.c2s.raw']);
    const bytes = sent[0]!.content as Uint8Array;
    expect(bytes.at(-1)).toBe(0);
    expect(new TextDecoder().decode(bytes.slice(0, -1))).toContain('auth-request');
    // No simulation ran: no rewards to export.
    expect(exportTranscriptFiles(recorder.transcript, massim, 'csv')).toEqual([]);
  });
});

describe('answerReplay', () => {
  it('asks for the environment when the recording names none, and says so for a protocol without one', async () => {
    const recorder = new TranscriptRecorder({ protocol: 'aisys', now: () => 0 });
    const body = '{"protocol_version":1,"agent":"a","pwd":"p","actions":[]}';
    recorder.httpRequest('http', { meta: { method: 'PUT', path: '/act/nim' }, body });
    const answer = await answerReplay(recorder.transcript, PROTOCOLS);
    expect('choose' in answer && answer.choose.choices.map((c) => c.id)).toContain('nim');
    const unknown = await answerReplay({ ...recorder.transcript, protocol: 'nothing' }, PROTOCOLS);
    expect(unknown).toEqual({ error: 'nothing has no emulated host to play this recording against' });
  });
});
