/**
 * The order in which rddlsim evaluates the groundings of interm fluents, against the order rddlsim itself
 * printed for domains written for the tests (its `State._alIntermGfluentOrdering` after setting up the
 * state, head of its public repository).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { rddlsimIntermOrder } from '../../../../src/core/envs/rddl/rddlsim-ordering';
import { groundingArgs } from '../../../../src/core/envs/rddl/grounding';

const file = (name: string) => [
  { name, text: readFileSync(new URL(`./rddlsim-exact/${name}`, import.meta.url), 'utf8') },
];

/** rddlsimIntermOrder as ground fluent names, `name(args)`. */
function intermOrder(name: string, instance: string): string[] | undefined {
  const model = loadRddl(file(name), { instance, rddlsimQuirks: true });
  const grounded = model.grounded;
  const order = rddlsimIntermOrder(grounded);
  if (!order) return undefined;
  const layouts = [...grounded.layouts.values()].filter((l) => l.store === 'interm');
  return order.map((slot) => {
    const layout = layouts.find((l) => slot >= l.offset && slot < l.offset + l.count)!;
    return `${layout.info.name}(${groundingArgs(layout, slot - layout.offset).join(', ')})`;
  });
}

describe("rddlsim's order of interm groundings", () => {
  it("follows the depth-first sort of rddlsim's graph, not the declaration of the objects", () => {
    expect(intermOrder('lighthouse.rddl', 'archipelago_night')).toEqual([
      'gust()',
      'dark(a1)',
      'dark(a3)',
      'dark(a4)',
      'dark(a2)',
    ]);
  });

  it('interleaves fluents and levels as rddlsim does', () => {
    expect(intermOrder('relay.rddl', 'coast_day')).toEqual([
      'storm()',
      'spike(zed)',
      'jitter(east7)',
      'spike(alpha)',
      'jitter(hub)',
      'jitter(zed)',
      'spike(mid)',
      'fault(zed)',
      'jitter(mid)',
      'spike(east7)',
      'fault(alpha)',
      'fault(hub)',
      'jitter(alpha)',
      'spike(hub)',
      'fault(east7)',
      'fault(mid)',
    ]);
    const grid = intermOrder('relay.rddl', 'grid_week')!;
    expect(grid.slice(0, 8)).toEqual([
      'jitter(k9)',
      'jitter(s1)',
      'jitter(s12)',
      'storm()',
      'spike(north)',
      'spike(s20)',
      'spike(delta)',
      'fault(s4)',
    ]);
    expect(grid.slice(-3)).toEqual(['fault(s1)', 'spike(s12)', 'fault(s3)']);
    expect(grid).toHaveLength(37);
  });

  it('is not computed when no interm fluent draws', () => {
    const text = `domain still { pvariables { x : { state-fluent, real, default = 0 }; y : { interm-fluent, real };
      go : { action-fluent, bool, default = false }; };
      cpfs { y = x + 1; x' = Bernoulli(0.5) + y; }; reward = x; }
      instance still1 { domain = still; horizon = 3; discount = 1.0; }`;
    const model = loadRddl([{ name: 'still.rddl', text }], { rddlsimQuirks: true });
    expect(rddlsimIntermOrder(model.grounded)).toBeUndefined();
  });
});
