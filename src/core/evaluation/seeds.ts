/** Seed lists as people write them: `1..100`, `7`, `1,5,9..12`. */

/** The seeds a list names, in order, without repeats; throws an Error saying what is wrong. */
export function parseSeeds(text: string, { max = 1_000_000 }: { max?: number } = {}): number[] {
  const seeds = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') throw new Error(`empty entry in the seed list '${text}'`);
    const range = /^(-?\d+)\s*\.\.\s*(-?\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to < from) throw new Error(`seed range '${part}' ends before it starts`);
      if (to - from + 1 + seeds.size > max) throw new Error(`more than ${max} seeds in '${text}'`);
      for (let seed = from; seed <= to; seed++) seeds.add(seed);
      continue;
    }
    if (!/^-?\d+$/.test(part)) throw new Error(`'${part}' is not a seed or a range like 1..100`);
    seeds.add(Number(part));
  }
  const list = [...seeds];
  for (const seed of list)
    if (!Number.isSafeInteger(seed)) throw new Error(`seed ${seed} is not a whole number in range`);
  return list;
}
