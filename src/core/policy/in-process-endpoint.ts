import { PolicyRuntime } from './runtime';
import type { PolicyEndpoint } from './supervisor';

/**
 * A policy endpoint running in the caller's own thread, with no worker boundary: for the command line's
 * trusted runs and as the baseline of the worker benchmarks. It cannot stop a policy that never returns
 * (`terminate` only drops the runtime), so interactive sessions use a worker instead.
 */
export function createInProcessEndpoint(): PolicyEndpoint {
  let runtime: PolicyRuntime | undefined = new PolicyRuntime();
  const live = (): PolicyRuntime => {
    if (!runtime) throw new Error('the policy runtime was terminated');
    return runtime;
  };
  return {
    load: async (source) => live().load(source),
    call: (hook, args, context) => live().call(hook, args, context),
    terminate: () => {
      runtime = undefined;
    },
  };
}
