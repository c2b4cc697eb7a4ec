/**
 * `npx tsx bench/compare-commits.ts <commit> <filter>... [--repeat N]`: runs the same benchmarks (as
 * `npm run bench -- <filter>` selects them) on an older commit and on this checkout, alternately (ABBA), N
 * times each, on the same machine in the same run, and prints every figure's median per side with the
 * ratio. The older commit is checked out into a temporary git worktree outside the repository (beside a
 * link to the shared reference folder, which benchmarks find at `../shared`), removed at the end. The
 * load average before each run is printed: on a shared machine, compare runs made under similar load.
 * Raw outputs go to `bench/out/`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Number(args.splice(repeatAt, 2)[1]) : 3;
const [commit, ...filters] = args;
if (!commit || filters.length === 0 || !Number.isInteger(repeat) || repeat < 1) {
  console.error('usage: npx tsx bench/compare-commits.ts <commit> <filter>... [--repeat N]');
  process.exit(2);
}

/** Runs one side's benchmarks; resolves to what they printed. */
function runBench(cwd: string, filter: string): Promise<string> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/index.ts', filter], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) =>
      code === 0 ? done(output) : failed(new Error(`bench ${filter} in ${cwd} exited with ${code}`)),
    );
  });
}

/**
 * The figures of a benchmark's output: every numeric cell of every table, keyed by the table's title, the
 * row's label cells and the column's header. Tables are a title line (`## ...`), a header line, a line of
 * dashes and rows whose cells are separated by two spaces or more.
 */
export function figures(output: string): Map<string, number> {
  const found = new Map<string, number>();
  const lines = output.split('\n');
  let file = '';
  let title = '';
  let header: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line.startsWith('# ')) file = line.slice(2);
    else if (line.startsWith('## ')) {
      title = line.slice(3);
      header = undefined;
    } else if (/^-{3,}(\s+-{3,})*$/.test(line) && i > 0) header = lines[i - 1]!.trim().split(/\s{2,}/);
    else if (line.trim() === '') header = undefined;
    else if (header) {
      const cells = line.trim().split(/\s{2,}/);
      if (cells.length !== header.length) continue;
      const label: string[] = [];
      cells.forEach((cell, c) => {
        const value = Number(cell.replace(/,/g, '').replace(/x$/, ''));
        if (cell === '-' || !Number.isFinite(value) || /^[a-z_]/i.test(cell)) {
          if (c < cells.length - 1 && label.length === c) label.push(cell);
          return;
        }
        found.set(`${file} | ${title} | ${label.join(' ')} | ${header![c]}`, value);
      });
    }
  }
  return found;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const short = execFileSync('git', ['rev-parse', '--short', commit], { cwd: REPO }).toString().trim();
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO }).toString().trim();
const scratch = mkdtempSync(join(tmpdir(), 'protoplay-bench-'));
const oldTree = join(scratch, 'protoplay');
const outDir = join(REPO, 'bench/out', `compare-${short}-${head}-${Date.now()}`);
mkdirSync(outDir, { recursive: true });
execFileSync('git', ['worktree', 'add', '--detach', oldTree, commit], { cwd: REPO, stdio: 'ignore' });
try {
  symlinkSync(join(REPO, 'node_modules'), join(oldTree, 'node_modules'));
  const shared = resolve(REPO, '../shared');
  if (existsSync(shared)) symlinkSync(shared, join(scratch, 'shared'));
  const sides = [
    { name: short, cwd: oldTree },
    { name: `${head} (this checkout)`, cwd: REPO },
  ];
  const seen = sides.map(() => new Map<string, number[]>());
  const loads: string[] = [];
  for (let round = 0; round < repeat; round++) {
    // ABBA: neither side always runs first, when the machine may be warmer or busier.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const s of order) {
      for (const filter of filters) {
        const load = loadavg()
          .map((value) => value.toFixed(1))
          .join(' ');
        loads.push(`run ${round + 1}, ${sides[s]!.name}, ${filter}: load average ${load}`);
        console.error(loads.at(-1));
        const output = await runBench(sides[s]!.cwd, filter);
        writeFileSync(
          join(outDir, `${round + 1}-${s === 0 ? 'old' : 'new'}-${filter.replace(/\W+/g, '_')}.txt`),
          output,
        );
        for (const [key, value] of figures(output)) {
          const list = seen[s]!.get(key) ?? [];
          list.push(value);
          seen[s]!.set(key, list);
        }
      }
    }
  }
  console.log(`Benchmarks ${filters.join(', ')}: ${short} against ${head}, ${repeat} runs each, alternately`);
  console.log(loads.join('\n'));
  console.log(`\nfigure | median ${sides[0]!.name} | median ${sides[1]!.name} | new/old`);
  for (const [key, values] of seen[0]!) {
    const newer = seen[1]!.get(key);
    if (!newer) continue;
    const [a, b] = [median(values), median(newer)];
    console.log(`${key} | ${a} | ${b} | ${a === 0 ? '-' : (b / a).toFixed(2)}`);
  }
  console.log(`\nraw outputs: ${outDir}`);
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', oldTree], { cwd: REPO, stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
