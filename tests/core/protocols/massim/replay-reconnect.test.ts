/**
 * A MASSim recording with connections made during the match, played again: an agent that closes its
 * connection and comes back later, one that reconnects without closing, one that joins late. Every
 * connection is opened (and closed) again where the recording shows it, and compared with its own.
 */
import { describe, expect, it } from 'vitest';
import { massimReplay } from '../../../../src/core/protocols/massim/replay';
import { REPLAY_CANCELLED } from '../../../../src/core/protocols/replay';
import type { Transcript } from '../../../../src/core/transcript/model';
import { recordWithReconnections } from './reconnections';
import { loadConfigText, loadRecording } from './recordings';

const serverFrames = (transcript: Transcript, conn?: string) =>
  transcript.messages.filter(
    (m) => m.kind === 'data' && m.dir === 's2c' && (conn === undefined || m.conn === conn),
  );

describe('MASSim replay of connections made during the match', () => {
  it('reproduces every connection of a recording where agents leave, come back and join late', async () => {
    const transcript = await recordWithReconnections();
    const conns = new Set(transcript.messages.map((m) => m.conn));
    for (const conn of ['agentA1.conn2', 'agentB1.conn2', 'agentB2.conn1'])
      expect(conns, `the recording has ${conn}`).toContain(conn);
    // agentA1 closed its first connection itself; the server closed agentB1's first one.
    expect(transcript.messages.find((m) => m.conn === 'agentA1.conn1' && m.kind === 'close')?.dir).toBe(
      'c2s',
    );
    expect(transcript.messages.find((m) => m.conn === 'agentB1.conn1' && m.kind === 'close')?.dir).toBe(
      's2c',
    );
    expect(serverFrames(transcript, 'agentA1.conn2').length).toBeGreaterThan(3);

    const report = await massimReplay.run(transcript);
    expect(report.first).toBeUndefined();
    expect(report).toMatchObject({ compared: serverFrames(transcript).length, differing: 0 });
    const note = report.notes.find((n) => n.includes('connected during the match'));
    for (const agent of ['agentA1', 'agentB1', 'agentB2']) expect(note).toContain(agent);
    expect(note).not.toContain('agentA2');
  });

  it('finds a change on a later connection there, with that connection named', async () => {
    const transcript = await recordWithReconnections();
    const request = serverFrames(transcript, 'agentA1.conn2').find((m) => m.text!.includes('"step":8'))!;
    const changed = request.text!.replace(/"energy":(\d+)/, (_, e: string) => `"energy":${Number(e) + 3}`);
    expect(changed).not.toBe(request.text);
    const report = await massimReplay.run({
      ...transcript,
      messages: transcript.messages.map((m) => (m === request ? { ...m, text: changed } : m)),
    });
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({
      recordedIndex: request.index,
      conn: 'agentA1.conn2',
      path: '$.content.percept.energy',
    });
  });

  it("replays the real server's probes run: late joins and reconnections agree up to the sim-start the server lost", async () => {
    const recording = loadRecording('probes');
    const agentsOnly: Transcript = {
      ...recording,
      messages: recording.messages.filter((m) => m.conn.startsWith('agent')),
    };
    const report = await massimReplay.run(agentsOnly, {
      file: { name: 'probes.json', text: loadConfigText('probes.json') },
    });
    // agentB2 joined late and agentB1 reconnected after closing: both agree. agentA2's second connection
    // got no sim-start from the real server (a race in its shutdown of the old connection); the emulator
    // sends it: the first difference is there.
    expect(report.first).toMatchObject({ conn: 'agentA2.conn2', position: 1, path: '$.type' });
    expect(report.first!.emulatedText).toContain('"sim-start"');
    expect(report.compared).toBe(serverFrames(agentsOnly).length);
  });

  it('stops when cancelled, and reports progress until then', async () => {
    const transcript = await recordWithReconnections();
    const seen: [number, number][] = [];
    const run = massimReplay.run(transcript, undefined, {
      progress: (done, total) => seen.push([done, total]),
      cancelled: () => seen.length > 0,
    });
    await expect(run).rejects.toMatchObject({ code: REPLAY_CANCELLED });
    expect(seen[0]![1]).toBe(serverFrames(transcript).length);
  });
});
