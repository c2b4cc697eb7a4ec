/**
 * An evaluation worker: one policy and the protocol's episode player side by side, playing the seeds the
 * page sends (see src/core/evaluation). The page terminates the worker when a policy call overruns its
 * budget, so a runaway loop costs this worker only.
 */
import type { FromEvaluationThread, ToEvaluationThread } from '../src/core/evaluation/messages';
import { serveEvaluation } from '../src/core/evaluation/thread-body';

serveEvaluation({
  post: (message: FromEvaluationThread) => self.postMessage(message),
  listen: (handler) =>
    self.addEventListener('message', (event: MessageEvent<ToEvaluationThread>) => handler(event.data)),
});
