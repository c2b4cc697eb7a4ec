/**
 * `npm run bench [filter]`: runs every bench/**\/*.bench.ts in turn (or those whose path contains `filter`).
 * Each exports a default async function that measures and prints its figures.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = import.meta.dirname;
const filter = process.argv[2];

function findBenchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findBenchFiles(path);
    return entry.name.endsWith('.bench.ts') ? [path] : [];
  });
}

const files = findBenchFiles(root)
  // The filter matches the path below bench/, so a checkout's own folder name never selects everything.
  .filter((file) => !filter || relative(root, file).includes(filter))
  .sort();
console.log(`Protoplay benchmarks (node ${process.version}, ${new Date().toISOString()})`);
for (const file of files) {
  console.log(`\n# ${relative(root, file)}`);
  const module = (await import(pathToFileURL(file).href)) as { default: () => Promise<void> };
  await module.default();
}
