/**
 * Writes a large, sound MASSim recording (a merged `all.timeline.jsonl` of one simulation) for the streamed
 * `inspect` test and benchmark: the recorded basic run of the real server (4 agents), its step 1 repeated
 * as many steps as needed, with step, id and the simulation's length rewritten so the match stays valid.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

interface Line {
  t: number;
  conn: string;
  dir: string;
  text: string;
}

const requestOf = /^\{"type":"request-action","content":\{"step":(\d+),"id":(\d+)/;

/** Writes about `bytes` bytes to `path`; returns the steps written and the file's size. */
export async function writeBigMassimTimeline(
  recordedTimeline: string,
  path: string,
  bytes: number,
  { truncateLast = false }: { truncateLast?: boolean } = {},
): Promise<{ steps: number; size: number }> {
  const lines = recordedTimeline
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
  const stepOf = (line: Line) => Number(requestOf.exec(line.text)?.[1] ?? NaN);
  const firstStep1 = lines.findIndex((line) => stepOf(line) === 1);
  const firstStep2 = lines.findIndex((line) => stepOf(line) === 2);
  const lastRequest = lines.findLastIndex((line) => requestOf.test(line.text));
  // The last step's actions come before the sim-ends.
  const tailStart = lines.findIndex(
    (line, i) => i > lastRequest && line.text.startsWith('{"type":"sim-end"'),
  );
  const head = lines.slice(0, firstStep1);
  const step = lines.slice(firstStep1, firstStep2);
  const tail = lines.slice(tailStart);
  const stepTime = step[step.length - 1]!.t - step[0]!.t + 1;
  const stepBytes = step.reduce((sum, line) => sum + JSON.stringify(line).length + 1, 0);
  const steps = Math.max(2, Math.round(bytes / stepBytes));
  const out = createWriteStream(path);
  let size = 0;
  let t = 0;
  const write = async (line: Line, text = line.text) => {
    const json = `${JSON.stringify({ ...line, t: line.t + t, text })}\n`;
    size += Buffer.byteLength(json);
    if (!out.write(json)) await once(out, 'drain');
  };
  for (const line of head) await write(line, line.text.replace(/"steps":\d+/, `"steps":${steps + 1}`));
  for (let n = 1; n <= steps; n++) {
    for (const line of step)
      await write(
        line,
        line.text
          .replace(/^(\{"type":"request-action","content":\{"step":)\d+,"id":\d+/, `$1${n},"id":${n}`)
          .replace(/^(\{"type":"action","content":\{"id":)\d+/, `$1${n}`),
      );
    t += stepTime;
  }
  for (const [i, line] of tail.entries()) {
    if (truncateLast && i === tail.length - 1) {
      const json = JSON.stringify(line);
      const cut = json.slice(0, Math.floor(json.length / 2));
      size += Buffer.byteLength(cut);
      out.write(cut);
    } else await write(line);
  }
  out.end();
  await once(out, 'finish');
  return { steps: steps + 1, size };
}
