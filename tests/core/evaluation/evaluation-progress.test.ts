/**
 * An evaluation's progress counts every episode that will not be played as ended once its policy has
 * stopped: during the run and after it, whichever thread was slower to start.
 */
import { describe, expect, it } from 'vitest';
import {
  Evaluation,
  type EvaluationPlan,
  type EvaluationThread,
} from '../../../src/core/evaluation/evaluation';
import type { FromEvaluationThread, ToEvaluationThread } from '../../../src/core/evaluation/messages';

/** A thread whose readiness and answers the test drives. */
class FakeThread implements EvaluationThread {
  handlers: { message(message: FromEvaluationThread): void; exit(reason: string): void } | undefined;
  readonly posted: ToEvaluationThread[] = [];
  terminated = false;
  constructor(private readonly onPost: (thread: FakeThread, message: ToEvaluationThread) => void) {}
  post(message: ToEvaluationThread): void {
    this.posted.push(message);
    this.onPost(this, message);
  }
  listen(handlers: NonNullable<FakeThread['handlers']>): void {
    this.handlers = handlers;
  }
  terminate(): void {
    this.terminated = true;
  }
}

const plan = (seeds: number[], workers: number): EvaluationPlan => ({
  protocol: 'fake',
  unit: 'round',
  settings: {},
  policies: [
    { label: 'crashing.js', source: { code: '', language: 'js', fileName: 'crashing.js', level: 'policy' } },
  ],
  seeds,
  rounds: 1,
  workers,
  budgetMs: 1000,
  startMs: 60_000,
});

describe('evaluation progress', () => {
  it('counts the seeds a stopped policy leaves as ended, also after the run, when a slower thread never took one', async () => {
    let releaseSecond: (() => void) | undefined;
    const threads: FakeThread[] = [];
    const evaluation = new Evaluation(plan([1, 2, 3], 2), {
      sharedClock: false,
      spawn: () => {
        const first = threads.length === 0;
        const thread = new FakeThread((self, message) => {
          if (message.kind === 'init') {
            const ready = () => queueMicrotask(() => self.handlers?.message({ kind: 'ready' }));
            if (first) ready();
            else releaseSecond = ready;
          } else queueMicrotask(() => self.handlers?.exit('the policy thread crashed'));
        });
        threads.push(thread);
        return thread;
      },
    });
    const seen: number[] = [];
    const running = evaluation.run();
    // The first thread crashes on its first seed before the second is ready: the policy stops.
    await expect.poll(() => evaluation.results[0]!.stopped).toBe(true);
    seen.push(evaluation.progress.ended);
    releaseSecond?.();
    const [result] = await running;
    expect(result!.failures.map((failure) => failure.kind)).toEqual(['crash']);
    expect(result!.skipped).toBe(2);
    // The second thread never took a seed: nothing else was played.
    expect(threads[1]?.posted.filter((message) => message.kind === 'play') ?? []).toEqual([]);
    seen.push(evaluation.progress.ended);
    expect(seen).toEqual([3, 3]);
    expect(evaluation.progress.total).toBe(3);
  });
});
