/**
 * Over TCP (directly or through the bridge), a step's request-actions arrive on as many sockets as the
 * team has agents, in separate reads. A team policy in a worker answers a whole step in one batch (one
 * message each way), but the batch only takes the requests that arrive together. This holds each step's
 * requests until every agent expected has asked (or a short wait has passed) and then hands them all over
 * at once.
 */
import type { MassimDecide, MassimDecisionRequest } from './client';
import type { MassimPolicyAction } from './policy-api';

/** Options of `gatherSteps`. */
export interface GatherOptions {
  /** How many agents are expected to ask for the current step. */
  expected(): number;
  /** The longest a request waits for the rest of its step, in ms. */
  windowMs: number;
}

interface Held {
  request: MassimDecisionRequest;
  resolve: (action: MassimPolicyAction | undefined) => void;
  reject: (error: unknown) => void;
}

/** A `MassimDecide` that passes each step's requests to `decide` together. */
export function gatherSteps(decide: MassimDecide, { expected, windowMs }: GatherOptions): MassimDecide {
  let held: Held[] = [];
  let heldStep = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const taken = held;
    held = [];
    // All in the same tick, so a batching decide sees them as one step.
    for (const { request, resolve, reject } of taken) {
      try {
        Promise.resolve(decide(request)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    }
  };
  return (request) =>
    new Promise((resolve, reject) => {
      if (held.length > 0 && request.step !== heldStep) release();
      held.push({ request, resolve, reject });
      heldStep = request.step;
      if (held.length >= expected()) release();
      else timer ??= setTimeout(release, windowMs);
    });
}
