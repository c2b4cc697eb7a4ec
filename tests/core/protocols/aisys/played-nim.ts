/**
 * A played aisys session for tests that need a long, sound one: perfect Nim on the emulated server,
 * several runs at a time, with a clock that moves a millisecond a message.
 */
import { localDecide } from '../../../../src/core/protocols/aisys/decide';
import { AisysSession } from '../../../../src/core/protocols/aisys/session';
import type { Transcript } from '../../../../src/core/transcript/model';

/** Perfect Nim: take what leaves a multiple of four (one when none does). */
export const perfectNim = localDecide((percept) => (percept as number) % 4 || 1);

/** A session of `runs` runs of perfect Nim with `seed`: its transcript. */
export async function playedNim(runs: number, seed = 5): Promise<Transcript> {
  let clock = 0;
  const session = new AisysSession({ env: 'nim', runs, seed, now: () => clock++, decide: perfectNim });
  await session.run();
  return session.transcript;
}
