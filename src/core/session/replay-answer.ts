/**
 * The session worker's answer to "continue in the playground": the transcript on show played again against
 * its protocol's emulated host (`Protocol.replay`). When the recording does not name its environment and
 * the user has not chosen one, the answer is the choice to make; failures are a sentence, never a throw.
 * A watcher hears the progress and may cancel (the answer then says it was cancelled).
 */
import { describeError, ProtoplayError } from '../errors';
import type { Protocol } from '../protocols/contract';
import { REPLAY_CANCELLED, type ReplayAnswer, type ReplaySetup, type ReplayWatch } from '../protocols/replay';
import type { Transcript } from '../transcript/model';

/** Plays `transcript` again on the emulated host of its protocol, found among `protocols`. */
export async function answerReplay(
  transcript: Transcript,
  protocols: readonly Protocol[],
  setup: ReplaySetup = {},
  watch?: ReplayWatch,
): Promise<ReplayAnswer> {
  const protocol = protocols.find((p) => p.id === transcript.protocol);
  if (!protocol?.replay)
    return {
      error: `${protocol?.label ?? transcript.protocol} has no emulated host to play this recording against`,
    };
  try {
    const replay = await protocol.replay.load();
    const plan = replay.plan(transcript);
    if (plan.impossible) return { error: plan.impossible };
    const chosen = setup.environment !== undefined || setup.file !== undefined;
    if (plan.environment === undefined && plan.choices.length > 0 && !chosen) return { choose: plan };
    return { report: await replay.run(transcript, setup, watch) };
  } catch (error) {
    if (error instanceof ProtoplayError && error.code === REPLAY_CANCELLED) return { cancelled: true };
    return { error: describeError(error) };
  }
}
