/**
 * Throughput of the MASSim codec on frames like the real ones, each next to the platform's own JSON in the
 * same run: cutting a byte stream into 0-terminated frames (baseline: a bare `indexOf(0)` scan), reading an
 * agent's action the way the real server's org.json does (baseline: `JSON.parse`), and an agent decoding
 * request-actions with their content checked (baseline: `JSON.parse`).
 */
import { createSimulation, sampleMassimConfig } from '../../src/core/envs/massim/index';
import { NulFrameSplitter } from '../../src/core/protocols/massim/framing';
import { encodeNulFrame } from '../../src/core/transport/nul-framing';
import { readClientFrame, decodeServerFrame } from '../../src/core/protocols/massim/codec';
import { serializeMassimMessage } from '../../src/core/protocols/massim/messages';
import { measureRate, printTable } from '../lib';

function requestActionFrames(): string[] {
  const config = sampleMassimConfig();
  const simulation = createSimulation(config.match[0]!, { seed: 2, teams: config.teams });
  for (let step = 0; step < 3; step++) simulation.step(new Map());
  return simulation.agents.map((agent, id) =>
    serializeMassimMessage({
      type: 'request-action',
      content: { step: 3, id, time: 1, percept: simulation.requestActionPercept(agent), deadline: 4001 },
    }),
  );
}

export default async function () {
  const frames = requestActionFrames();
  const stream = new Uint8Array(frames.reduce((n, f) => n + encodeNulFrame(f).length, 0));
  let offset = 0;
  for (const frame of frames) {
    const bytes = encodeNulFrame(frame);
    stream.set(bytes, offset);
    offset += bytes.length;
  }
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < stream.length; start += 1460) chunks.push(stream.subarray(start, start + 1460));
  const mb = stream.length / 1e6;

  const scan = await measureRate('indexOf scan', mb, () => {
    let count = 0;
    for (const chunk of chunks) for (let i = chunk.indexOf(0); i >= 0; i = chunk.indexOf(0, i + 1)) count++;
    return count;
  });
  const split = await measureRate('splitter', mb, () => {
    const splitter = new NulFrameSplitter({ maxPacketLength: 65536 });
    let count = 0;
    for (const chunk of chunks) splitter.push(chunk, () => void count++);
    return count;
  });

  const actions = Array.from({ length: 1000 }, (_, id) =>
    JSON.stringify({ type: 'action', content: { id, type: 'move', p: ['n', 'e'] } }),
  );
  const jsonActions = await measureRate('JSON.parse', actions.length, () =>
    actions.map((a) => JSON.parse(a)),
  );
  const orgActions = await measureRate('readClientFrame', actions.length, () => actions.map(readClientFrame));

  const jsonRequests = await measureRate('JSON.parse', frames.length, () => frames.map((f) => JSON.parse(f)));
  const decodedRequests = await measureRate('decodeServerFrame', frames.length, () =>
    frames.map((f) => decodeServerFrame(f)),
  );

  printTable('MASSim codec', [
    ['operation', 'unit', 'baseline', 'ours', 'ours / baseline'],
    [
      'frame splitting (request-action stream, 1460-byte chunks)',
      'MB/s',
      scan.opsPerSecond,
      split.opsPerSecond,
      (split.opsPerSecond / scan.opsPerSecond).toFixed(2),
    ],
    [
      'server reading an action (org.json rules)',
      'frames/s',
      jsonActions.opsPerSecond,
      orgActions.opsPerSecond,
      (orgActions.opsPerSecond / jsonActions.opsPerSecond).toFixed(2),
    ],
    [
      'agent decoding a request-action (~2.4 KB)',
      'frames/s',
      jsonRequests.opsPerSecond,
      decodedRequests.opsPerSecond,
      (decodedRequests.opsPerSecond / jsonRequests.opsPerSecond).toFixed(2),
    ],
  ]);
}
