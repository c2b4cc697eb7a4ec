import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MassimStepPercept } from '../../../../src/core/envs/massim/api';
import { inspectRecording } from '../../../../src/core/protocols/inspection';
import { openRecording } from '../../../../src/core/session/open-recording';
import { MassimWorldPacker } from '../../../../src/core/protocols/massim';
import { MassimTranscriptReader } from '../../../../src/core/protocols/massim/reader';
import { detectMassimReplay, importMassimReplays } from '../../../../src/core/protocols/massim/replay-import';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import type { ImportInput } from '../../../../src/core/protocols/contract';
import { TranscriptStore } from '../../../../src/core/transcript/store';
import { sharedPath } from '../../../cli/shared-folder';

/** The replay folders the real server wrote during a recorded run, as the page gets a dropped folder. */
function replayInputs(run: string): ImportInput[] {
  const replays = sharedPath(`conformance/massim/${run}/server-run/replays`);
  return readdirSync(replays).flatMap((folder) =>
    readdirSync(join(replays, folder)).map((file) => ({
      name: `replays/${folder}/${file}`,
      bytes: new Uint8Array(readFileSync(join(replays, folder, file))),
    })),
  );
}

/** The frames an agent's connection really carried in the same run. */
function recordedFrames(run: string, agent: string, dir: 'c2s' | 's2c') {
  const bytes = readFileSync(sharedPath(`conformance/massim/${run}/connections/${agent}.conn1.${dir}.bin`));
  return bytes
    .toString('utf8')
    .split('\0')
    .filter((frame) => frame !== '')
    .map((frame) => JSON.parse(frame) as { type: string; content: Record<string, unknown> });
}

const withoutMarkers = (percept: MassimStepPercept) =>
  percept.things
    .filter((thing) => thing.type !== 'marker')
    .map((thing) => `${thing.x},${thing.y},${thing.type},${thing.details}`)
    .sort();
const cells = (list: [number, number][]) => list.map(String).sort();
const names = (list: { name: string }[]) => list.map((item) => item.name).sort();

describe('MASSim server replay folders', () => {
  it('are detected from static.json, with or without the server logs beside them', () => {
    const inputs = replayInputs('basic');
    expect(detectMassimReplay(inputs)).toBeGreaterThan(0.9);
    const log = { name: 'logs/MASSim-log.log', bytes: new TextEncoder().encode('[ NORMAL ] ...') };
    expect(detectMassimReplay([...inputs, log])).toBeGreaterThan(0.9);
    expect(detectMassimReplay([log])).toBe(0);
    const result = inspectRecording([...inputs, log], PROTOCOLS);
    expect(result).toMatchObject({ protocol: 'massim', format: 'massim-replay', problems: [] });
  });

  it("rebuild each agent's actions and percepts as the real server sent them in the same run", () => {
    const { transcripts, problems } = importMassimReplays(replayInputs('basic'));
    expect(problems).toEqual([]);
    expect(transcripts).toHaveLength(1);
    const transcript = transcripts[0]!;
    expect(transcript.meta).toMatchObject({ source: 'massim-replay', wire: 'synthesised' });
    expect(transcript.connections.map((c) => c.id).sort()).toEqual(
      ['agentA1', 'agentA2', 'agentB1', 'agentB2'].map((agent) => `${agent}.conn1`),
    );
    for (const agent of ['agentA1', 'agentB2']) {
      const mine = transcript.messages
        .filter((m) => m.conn === `${agent}.conn1` && m.kind === 'data')
        .map((m) => JSON.parse(m.text!) as { type: string; content: Record<string, unknown> });
      const sent = recordedFrames('basic', agent, 'c2s').filter((f) => f.type === 'action');
      expect(mine.filter((m) => m.type === 'action').map((m) => [m.content.type, m.content.p])).toEqual(
        sent.map((f) => [f.content.type, f.content.p]),
      );
      const requests = mine.filter((m) => m.type === 'request-action');
      const received = recordedFrames('basic', agent, 's2c').filter((f) => f.type === 'request-action');
      expect(requests.map((m) => m.content.step)).toEqual(received.map((f) => f.content.step));
      requests.forEach((request, i) => {
        const percept = request.content.percept as MassimStepPercept;
        const real = received[i]!.content.percept as MassimStepPercept;
        const step = `${agent} step ${String(request.content.step)}`;
        for (const key of ['lastAction', 'lastActionResult', 'lastActionParams', 'score', 'role'] as const)
          expect(percept[key], `${step} ${key}`).toEqual(real[key]);
        expect(withoutMarkers(percept), step).toEqual(withoutMarkers(real));
        expect(cells(percept.goalZones), step).toEqual(cells(real.goalZones));
        expect(cells(percept.roleZones), step).toEqual(cells(real.roleZones));
        expect(names(percept.norms), step).toEqual(names(real.norms));
        expect(names(percept.tasks), step).toEqual(names(real.tasks));
      });
      const simEnd = mine.find((m) => m.type === 'sim-end')!;
      const realEnd = recordedFrames('basic', agent, 's2c').find((f) => f.type === 'sim-end')!;
      expect(simEnd.content.score).toBe(realEnd.content.score);
    }
  });

  it('give the views a frame per step with the true world and the scores', () => {
    const transcript = importMassimReplays(replayInputs('probes')).transcripts[0]!;
    const store = TranscriptStore.fromTranscript(transcript, { packers: [new MassimWorldPacker()] });
    const reader = new MassimTranscriptReader(store, { judgeAgents: false });
    reader.read();
    expect(reader.frames.map((frame) => frame.step)).toEqual([...Array(16).keys()]);
    expect(reader.frames.every((frame) => frame.world)).toBe(true);
    const world = reader.world(3)!;
    expect(world.static).toMatchObject({ width: expect.any(Number), steps: 16 });
    expect(world.snapshot.step).toBe(4);
    const view = reader.agentView(3, 'agentA2');
    expect(view.percept?.things.some((thing) => thing.x === 0 && thing.y === 0)).toBe(true);
    expect(JSON.parse(view.actionText!)).toMatchObject({ type: 'action', content: { id: 3 } });
  });

  it('read two simulations of one match as two sessions, and are not checked against the wire rules', () => {
    const report = inspectRecording(replayInputs('multisim'), PROTOCOLS);
    expect(report.sessions.map((s) => s.connections)).toEqual([2, 4]);
    expect(report.sessions.every((s) => s.unchecked?.includes('massim-replay'))).toBe(true);
    expect(report.sessions.every((s) => s.violations.length === 0)).toBe(true);
    // The page's import says the same: no violations of rules nobody's messages were checked against.
    const opened = openRecording(replayInputs('basic'), PROTOCOLS);
    expect(opened.summary).toMatchObject({ protocol: 'massim', messages: 172, violations: [] });
  });

  it('keep the steps of a folder whose step file is missing and name the missing steps', () => {
    const inputs = replayInputs('basic').filter((input) => !input.name.endsWith('/5.json'));
    const { transcripts, problems } = importMassimReplays(inputs);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toMatch(/\/5\.json$/);
    expect(problems[0]!.message).toContain('steps 5–9 of 20');
    const steps = transcripts[0]!.messages
      .filter((m) => m.conn === 'agentA1.conn1' && m.text?.startsWith('{"type":"request-action"'))
      .map((m) => (JSON.parse(m.text!) as { content: { step: number } }).content.step);
    // Step 5 is seen from the world of step 4; steps 6 to 10 need a world the missing file held.
    expect(steps).toEqual([0, 1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('locate broken JSON in a step file (a run stopped while writing it) and keep the other steps', () => {
    const inputs = replayInputs('basic').map((input) =>
      input.name.endsWith('/15.json') ? { ...input, bytes: input.bytes.subarray(0, 5000) } : input,
    );
    const report = inspectRecording(inputs, PROTOCOLS);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: expect.stringMatching(/\/15\.json$/), line: 1 });
    expect(report.problems[0]!.message).toMatch(/not valid JSON.*steps 15–19 are left out/);
    expect(report.sessions[0]!.messages).toBeGreaterThan(4 * 2 * 14);
  });

  it('say which folder lacks its static.json instead of reading nothing silently', () => {
    const inputs = replayInputs('basic').filter((input) => !input.name.endsWith('static.json'));
    const { transcripts, problems } = importMassimReplays(inputs);
    expect(transcripts).toEqual([]);
    expect(problems[0]!.message).toMatch(/has no static\.json/);
    const broken = replayInputs('basic').map((input) =>
      input.name.endsWith('static.json')
        ? { ...input, bytes: new TextEncoder().encode('{"grid": {"width": 20}') }
        : input,
    );
    const outcome = importMassimReplays(broken);
    expect(outcome.problems[0]).toMatchObject({ file: expect.stringMatching(/static\.json$/), line: 1 });
  });
});
