/**
 * Writes a large, sound rddlsim wire stream (one session, messages ended by NUL) for the streamed
 * `inspect` test and benchmark: a real recorded session's first round repeated as many rounds as needed,
 * with the round numbers and totals rewritten so the session stays valid.
 */
import { once } from 'node:events';
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { jsonListItem, writeTranscriptJsonParts } from '../../src/core/transcript/json-export';
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

/**
 * Writes about `bytes` bytes of a Protoplay JSON transcript of one sound rddlsim session to `path`, laid out
 * by the transcript writer (one message per line): a real recorded session's first round repeated, as in
 * `writeBigRddlsimStream`. Returns the messages written.
 */
export function writeBigTranscriptJson(
  recorded: readonly TranscriptMessage[],
  path: string,
  bytes: number,
): { messages: number; size: number } {
  const data = recorded.filter((m) => m.kind === 'data');
  const firstRound = data.findIndex((m) => m.text!.includes('<round-request'));
  const firstEnd = data.findIndex((m) => m.text!.includes('<round-end>'));
  const last = data.findIndex((m) => m.text!.includes('<session-end>'));
  const round = data.slice(firstRound, firstEnd + 1);
  // JSON escapes make a message about a tenth longer than on the wire.
  const roundBytes = round.reduce((sum, m) => sum + JSON.stringify(m.text).length + 60, 0);
  const rounds = Math.max(1, Math.round(bytes / roundBytes));
  const roundReward = Number(/<round-reward>([^<]*)</.exec(data[firstEnd]!.text!)![1]);
  const messages: { dir: TranscriptMessage['dir']; text: () => string }[] = [
    ...data.slice(0, firstRound).map((m) => ({
      dir: m.dir,
      text: () => m.text!.replace(/<num-rounds>\d+</, `<num-rounds>${rounds}<`),
    })),
  ];
  const count = messages.length + rounds * round.length + 1;
  const fd = openSync(path, 'w');
  let size = 0;
  let pending = '';
  const write = (piece: string) => {
    pending += piece;
    if (pending.length >= 1 << 20) flush();
  };
  const flush = () => {
    size += writeSync(fd, pending);
    pending = '';
  };
  const item = (i: number, dir: TranscriptMessage['dir'], text: string) =>
    jsonListItem(JSON.stringify({ index: i, t: i, conn: 'session-1', dir, kind: 'data', text }), i);
  try {
    writeTranscriptJsonParts(
      { protocol: 'rddlsim', startedAt: 0, meta: { source: 'bench' }, connections: [{ id: 'session-1' }] },
      {
        count,
        writeItems(put) {
          let i = 0;
          for (const m of messages) put(item(i++, m.dir, m.text()));
          for (let r = 1; r <= rounds; r++)
            for (const m of round)
              put(
                item(
                  i++,
                  m.dir,
                  m
                    .text!.replace(
                      /<round-init><round-num>\d+<\/round-num><round-left>\d+</,
                      `<round-init><round-num>${r}</round-num><round-left>${rounds - r}<`,
                    )
                    .replace(/(<round-end>[^]*?<round-num>)\d+</, `$1${r - 1}<`),
                ),
              );
          const end = data[last]!.text!.replace(
            /<total-reward>[^<]*</,
            `<total-reward>${roundReward * rounds}<`,
          ).replace(/<rounds-used>\d+</, `<rounds-used>${rounds}<`);
          put(item(i, data[last]!.dir, end));
        },
      },
      { count: 0, writeItems() {} },
      write,
    );
    flush();
  } finally {
    closeSync(fd);
  }
  return { messages: count, size };
}
