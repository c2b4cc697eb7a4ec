/**
 * Every protocol's page side, in the order of the core registry. Adding a protocol's page is one folder
 * (`src/ui/protocols/<id>/`, exporting its adapter) and one line here; a protocol without one plays in
 * the standard workbench (`defaultPageAdapter`).
 */
import type { Protocol } from '../../core/protocols/contract';
import type { AnyPageAdapter } from './adapter';
import { aisysPageAdapter } from './aisys/adapter';
import { defaultPageAdapter } from './default/adapter';
import { gamaPageAdapter } from './gama/adapter';
import { massimPageAdapter } from './massim/adapter';
import { rddlsimPageAdapter } from './rddlsim/adapter';

const ADAPTERS: readonly AnyPageAdapter[] = [
  rddlsimPageAdapter,
  massimPageAdapter,
  gamaPageAdapter,
  aisysPageAdapter,
];

const defaults = new Map<string, AnyPageAdapter>();

/** The page adapter of a protocol: its own, or the standard one. */
export function pageAdapterOf(protocol: Protocol): AnyPageAdapter {
  const own = ADAPTERS.find((adapter) => adapter.protocol.id === protocol.id);
  if (own) return own;
  let standard = defaults.get(protocol.id);
  if (!standard) defaults.set(protocol.id, (standard = defaultPageAdapter(protocol)));
  return standard;
}

/** The adapter that claims a link naming no protocol (an older link format), if any. */
export function adapterClaimingLink(fragment: string): AnyPageAdapter | undefined {
  return ADAPTERS.find((adapter) => adapter.claimsLink?.(fragment));
}
