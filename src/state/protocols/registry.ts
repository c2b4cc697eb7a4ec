/**
 * The protocols the playground offers. Adding one is adding its adapter here: the pickers, the views and
 * the session worker take everything else from the adapter.
 */
import type { ProtocolId } from '../../core/transcript/model';
import type { ProtocolAdapter } from './adapter';
import { massimAdapter } from './massim/adapter';
import { rddlsimAdapter } from './rddlsim/adapter';

/** Every protocol with an adapter, in the order the picker lists them. */
export const PROTOCOL_ADAPTERS: readonly ProtocolAdapter[] = [rddlsimAdapter, massimAdapter];

/** The adapter of a protocol; the first one for an unknown id (e.g. from an old link). */
export function protocolAdapter(id: ProtocolId): ProtocolAdapter {
  return PROTOCOL_ADAPTERS.find((adapter) => adapter.id === id) ?? PROTOCOL_ADAPTERS[0]!;
}
