/**
 * The playground of a protocol that gives `endpoints` and needs nothing of its own in the page: the
 * generic emulated runner in the session worker, the ordinary policy runtime (`act(observation, context)`)
 * in the policy worker. Both load on first use.
 */
import type { Protocol } from '../protocols/contract';
import type { ProtocolPlayground } from '../protocols/session-contract';

/** The standard playground of a protocol (given lazily: the definition usually holds its own playground). */
export function standardPlayground(protocol: () => Protocol): ProtocolPlayground {
  return {
    loadRunner: async () => (await import('./emulated-runner')).emulatedPlaygroundRunner(protocol()),
    loadPolicyRuntime: async () => new (await import('../policy/runtime')).PolicyRuntime(),
  };
}
