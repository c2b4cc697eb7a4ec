import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import { massimProtocol } from '../../../../src/core/protocols/massim/protocol';
import { importRecording } from '../../../../src/core/transcript/import';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import type { Transcript } from '../../../../src/core/transcript/model';
import { loadRecording, recordingFiles } from './recordings';

const encoder = new TextEncoder();
const binInputs = (run: string) =>
  recordingFiles(run)
    .filter((file) => file.name.endsWith('.bin'))
    .map((file) => ({
      name: file.name,
      bytes: typeof file.content === 'string' ? encoder.encode(file.content) : file.content,
    }));
const dataByConnection = (transcript: Transcript) => {
  const byConn = new Map<string, string[]>();
  for (const m of transcript.messages)
    if (m.kind === 'data') byConn.set(m.conn, [...(byConn.get(m.conn) ?? []), `${m.dir} ${m.text}`]);
  return byConn;
};

describe('MASSim byte streams without a timeline', () => {
  it.each(['basic', 'multisim', 'events'])(
    'puts the %s run back in the order its timeline recorded, connection by connection',
    (run) => {
      const result = importRecording(binInputs(run), PROTOCOLS);
      expect(result).toMatchObject({ protocol: 'massim', format: 'massim-streams', problems: [] });
      const streams = result.transcripts[0]!;
      const timeline = loadRecording(run);
      expect(dataByConnection(streams)).toEqual(dataByConnection(timeline));
      // The same rules broken, at the same messages, as the timed recording shows.
      const rules = (t: Transcript) =>
        validateTranscript(t, massimProtocol)
          .violations.map((v) => `${v.conn} ${v.rule} ${t.messages[v.index]!.text ?? ''}`)
          .sort();
      expect(rules(streams)).toEqual(rules(timeline));
      // Times come from the server's clock: they never go back.
      expect(streams.meta.timing).toBe('server-clock');
      for (let i = 1; i < streams.messages.length; i++)
        expect(streams.messages[i]!.t).toBeGreaterThanOrEqual(streams.messages[i - 1]!.t);
    },
  );

  it('keeps every frame of the probes run, whose deliberately stale and late actions cannot be placed from bytes alone', () => {
    const streams = importRecording(binInputs('probes'), PROTOCOLS).transcripts[0]!;
    const sorted = (t: Transcript) =>
      new Map([...dataByConnection(t)].map(([conn, list]) => [conn, [...list].sort()]));
    expect(sorted(streams)).toEqual(sorted(loadRecording('probes')));
  });

  it('says which half of a connection is missing', () => {
    const inputs = binInputs('basic').filter((input) => !input.name.startsWith('agentA1.conn1.s2c'));
    const result = importRecording(inputs, PROTOCOLS);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'agentA1.conn1.c2s.bin',
        message: expect.stringContaining('half of the conversation is missing: no agentA1.conn1.s2c.bin'),
      }),
    ]);
    expect(result.transcripts[0]!.connections).toHaveLength(4);
  });
});
