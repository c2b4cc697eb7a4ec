/**
 * The inside of an evaluation thread (a Node worker thread or a Web Worker): the protocol's episode player
 * and the policy's runtime, side by side, playing the seeds the owner sends one at a time. The thread is
 * the policy's sandbox: it has no budget of its own, it only tells the owner when each policy call starts
 * and ends, and the owner terminates it when one overruns.
 */
import { findProtocol } from '../protocols/registry';
import type { EpisodePlayer, EpisodePolicy, EvaluatedPolicySource } from '../protocols/evaluation-contract';
import type { PolicyRuntimeApi } from '../protocols/session-contract';
import { describeError } from '../errors';
import {
  CLOCK_ROUND,
  CLOCK_STARTED,
  CLOCK_TURN,
  type FromEvaluationThread,
  type ToEvaluationThread,
} from './messages';

/** The thread's end of its port. */
export interface ThreadPort {
  post(message: FromEvaluationThread): void;
  listen(handler: (message: ToEvaluationThread) => void): void;
}

/** Serves an evaluation on a port, one message at a time. */
export function serveEvaluation(port: ThreadPort): void {
  let player: EpisodePlayer | undefined;
  let runtime: PolicyRuntimeApi | undefined;
  let source: EvaluatedPolicySource | undefined;
  let settings: unknown;
  let clock: Float64Array | undefined;
  let queue = Promise.resolve();

  const begin = (round: number, turn: number) => {
    if (clock) {
      clock[CLOCK_ROUND] = round;
      clock[CLOCK_TURN] = turn;
      clock[CLOCK_STARTED] = Date.now();
    } else port.post({ kind: 'call', at: Date.now(), round, turn });
  };
  const end = (round: number, turn: number) => {
    if (clock) clock[CLOCK_STARTED] = 0;
    else port.post({ kind: 'call', round, turn });
  };

  const handle = async (message: ToEvaluationThread): Promise<void> => {
    if (message.kind === 'init') {
      try {
        const protocol = findProtocol(message.protocol);
        if (!protocol?.evaluation) throw new Error(`${message.protocol} cannot be evaluated`);
        player = await protocol.evaluation.load();
        player.prepare(message.settings);
        runtime = player.policyRuntime?.() ?? new (await import('../policy/runtime')).PolicyRuntime();
        source = message.policy;
        settings = message.settings;
        clock = message.clock ? new Float64Array(message.clock) : undefined;
        port.post({ kind: 'ready' });
      } catch (error) {
        port.post({ kind: 'init-failed', error: describeError(error) });
      }
      return;
    }
    if (!player || !runtime || !source) return;
    const { id, seed, rounds, trace, record } = message;
    const policyRuntime = runtime;
    const policySource = source;
    const policy: EpisodePolicy = {
      async load(context) {
        begin(0, 0);
        try {
          return await policyRuntime.load({ ...policySource, seed, context });
        } finally {
          end(0, 0);
        }
      },
      async call(hook, args, site) {
        begin(site.round, site.turn);
        try {
          return await policyRuntime.call(hook, args, {});
        } finally {
          end(site.round, site.turn);
        }
      },
    };
    const started = performance.now();
    let outcome;
    try {
      outcome = await player.play({ settings, seed, rounds, trace, ...(record ? { record } : {}) }, policy);
    } catch (error) {
      outcome = { rewards: [], turns: [], error: describeError(error) };
    }
    port.post({ kind: 'done', id, outcome, ms: performance.now() - started });
  };

  port.listen((message) => {
    queue = queue.then(() => handle(message));
  });
}
