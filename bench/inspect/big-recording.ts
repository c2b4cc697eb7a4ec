/**
 * Writes a large, sound rddlsim wire stream (one session, messages ended by NUL) for the streamed
 * `inspect` test and benchmark: a real recorded session's first round repeated as many rounds as needed,
 * with the round numbers and totals rewritten so the session stays valid.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { TranscriptMessage } from '../../src/core/transcript/model';

/** Writes about `bytes` bytes to `path`; returns the rounds written and each round's reward. */
export async function writeBigRddlsimStream(
  recorded: readonly TranscriptMessage[],
  path: string,
  bytes: number,
  { truncateLast = false }: { truncateLast?: boolean } = {},
): Promise<{ rounds: number; roundReward: number; size: number }> {
  const texts = recorded.filter((m) => m.kind === 'data').map((m) => m.text!);
  const firstRound = texts.findIndex((t) => t.includes('<round-request'));
  const firstEnd = texts.findIndex((t) => t.includes('<round-end>'));
  const last = texts.findIndex((t) => t.includes('<session-end>'));
  const head = texts.slice(0, firstRound);
  const round = texts.slice(firstRound, firstEnd + 1);
  const roundBytes = round.reduce((sum, t) => sum + Buffer.byteLength(t) + 1, 0);
  const rounds = Math.max(1, Math.round(bytes / roundBytes));
  const roundReward = Number(/<round-reward>([^<]*)</.exec(texts[firstEnd]!)![1]);
  const out = createWriteStream(path);
  let size = 0;
  const write = async (text: string) => {
    size += Buffer.byteLength(text) + 1;
    if (!out.write(`${text}\0`)) await once(out, 'drain');
  };
  for (const text of head) await write(text.replace(/<num-rounds>\d+</, `<num-rounds>${rounds}<`));
  for (let r = 1; r <= rounds; r++)
    for (const text of round)
      await write(
        text
          .replace(
            /<round-init><round-num>\d+<\/round-num><round-left>\d+</,
            `<round-init><round-num>${r}</round-num><round-left>${rounds - r}<`,
          )
          .replace(/(<round-end>[^]*?<round-num>)\d+</, `$1${r - 1}<`),
      );
  const end = texts[last]!.replace(/<total-reward>[^<]*</, `<total-reward>${roundReward * rounds}<`).replace(
    /<rounds-used>\d+</,
    `<rounds-used>${rounds}<`,
  );
  if (truncateLast) {
    const cut = end.slice(0, Math.floor(end.length / 2));
    size += Buffer.byteLength(cut);
    out.write(cut);
  } else await write(end);
  out.end();
  await once(out, 'finish');
  return { rounds, roundReward, size };
}
