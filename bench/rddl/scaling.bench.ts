/**
 * How the compiled simulator scales with the size of an instance: the built-in network admin domain (a
 * sysadmin-like network) on generated networks of 10, 100, 1,000 and 10,000 computers, each computer
 * watching 3 random others. Per size: load time, steps/s with no-op actions over whole rounds, nanoseconds
 * per grounded fluent per step (which should stay flat if the cost per step is linear), and memory per
 * grounded fluent (the state arrays, and the heap growth of loading, which includes the generated code).
 * Baseline in the same run: copying the state once per step (a floor for any simulator that keeps a
 * current and a next state), with the ratio.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadRddl } from '../../src/core/envs/rddl';
import { NETWORK_ADMIN } from '../../src/core/envs/rddl/examples/network-admin';
import { Rng } from '../../src/core/random';
import { formatNumber, measureRate, printTable } from '../lib';

const SIZES = [10, 100, 1_000, 10_000];
const HORIZON = 40;
const LINKS_PER_COMPUTER = 3;

/** A network of `n` computers, each linked from 3 others chosen at random (seeded). */
function generatedInstance(n: number): string {
  const rng = new Rng(n);
  const names = Array.from({ length: n }, (_, i) => `c${i + 1}`);
  const links: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = new Set<number>();
    while (from.size < Math.min(LINKS_PER_COMPUTER, n - 1)) {
      const j = rng.nextInt(n);
      if (j !== i) from.add(j);
    }
    for (const j of from) links.push(`LINK(${names[j]}, ${names[i]});`);
  }
  return `non-fluents net_${n} {
  domain = network_admin;
  objects { computer : {${names.join(', ')}}; };
  non-fluents { ${links.join(' ')} };
}
instance net_${n}_inst {
  domain = network_admin;
  non-fluents = net_${n};
  max-nondef-actions = 1;
  horizon = ${HORIZON};
  discount = 1.0;
}
`;
}

// A full collection before each reading makes heap growth mean memory kept, not garbage not yet freed.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Heap growth below this is noise: what one full collection frees or keeps varies by that much. */
const HEAP_NOISE_BYTES = 128 * 1024;

function heapBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export default async function () {
  const rows: (string | number)[][] = [
    [
      'computers',
      'grounded fluents',
      'load ms',
      'steps/s',
      'steps/s (CPU)',
      'ns / fluent / step',
      'state copy steps/s',
      'x state copy',
      'array bytes / fluent',
      'heap bytes / fluent',
    ],
  ];
  // One load first, so the parser's and compiler's one-time set-up is not counted in the first size's heap.
  loadRddl([
    { name: 'network_admin.rddl', text: NETWORK_ADMIN.domain },
    { name: 'net_warm.rddl', text: generatedInstance(SIZES[0]!) },
  ]).createSimulator({ seed: 1 });
  for (const n of SIZES) {
    const sources = [
      { name: 'network_admin.rddl', text: NETWORK_ADMIN.domain },
      { name: `net_${n}.rddl`, text: generatedInstance(n) },
    ];
    const heapBefore = heapBytes();
    const loadStart = performance.now();
    const model = loadRddl(sources);
    const simulator = model.createSimulator({ seed: 1 });
    const loadMs = performance.now() - loadStart;
    const heapGrowth = heapBytes() - heapBefore;
    const { sizes } = model.grounded;
    const fluents = sizes.state + sizes.action + sizes.interm + sizes.observ;
    // Two state arrays, action defaults and values, interm and observation values (8 bytes each), and
    // one byte per boolean tag of the current, next state and observations.
    const arrayBytes =
      8 * (2 * sizes.state + 2 * sizes.action + sizes.interm + sizes.observ) + 2 * sizes.state + sizes.observ;

    const rounds = Math.max(1, Math.round(20_000 / n));
    let cpuMicros = 0;
    const play = () => {
      const cpu = process.cpuUsage();
      for (let r = 0; r < rounds; r++) {
        simulator.reset();
        for (let t = 0; t < HORIZON; t++) simulator.step([]);
      }
      const used = process.cpuUsage(cpu);
      cpuMicros += used.user + used.system;
    };
    const compiled = await measureRate('compiled', rounds * HORIZON, play, { warmup: 3, repeats: 5 });
    const cpuRate = (rounds * HORIZON * 8) / (cpuMicros / 1e6);

    const current = new Float64Array(sizes.state);
    const next = new Float64Array(sizes.state).fill(1);
    const copy = await measureRate('state copy', rounds * HORIZON, () => {
      for (let i = 0; i < rounds * HORIZON; i++) {
        current.set(next);
        next[i % next.length] = i;
      }
    });
    rows.push([
      n,
      fluents,
      loadMs,
      compiled.opsPerSecond,
      cpuRate,
      1e9 / (cpuRate * fluents),
      copy.opsPerSecond,
      `${formatNumber(copy.opsPerSecond / compiled.opsPerSecond)}x slower`,
      arrayBytes / fluents,
      // A small instance's growth is within what a collection leaves behind either way (tens of KB).
      Math.abs(heapGrowth) < HEAP_NOISE_BYTES
        ? `(< ${HEAP_NOISE_BYTES / 1024} KB in all)`
        : heapGrowth / fluents,
    ]);
  }
  printTable(
    'RDDL scaling: network admin on generated networks (3 links per computer), no-op policy, whole rounds',
    rows,
  );
}
