/**
 * `scripts/run-together.ts` (how `npm test` runs its static checks): npm scripts of a scratch package run
 * at the same time, each one's output printed whole under its verdict, and the exit code says whether all
 * passed, after every script has ended.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/run-together.ts');
const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');

/** A script that writes three numbered lines, then exits with `code` (and, optionally, leaves a file). */
const lines = (label: string, code: number, leaves = '') =>
  `node -e "for (let i = 1; i <= 3; i++) console.log('${label} ' + i);${leaves ? ` require('fs').writeFileSync('${leaves}', '');` : ''} process.exit(${code})"`;
/** A script that waits for the file `quick` leaves, then writes its lines: it ends only if run beside it. */
const waiting = `node -e "const t = setInterval(() => { if (!require('fs').existsSync('quick.done')) return; clearInterval(t); for (let i = 1; i <= 3; i++) console.log('slow ' + i); }, 20)"`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-together-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      scripts: {
        slow: waiting,
        quick: lines('quick', 0, 'quick.done'),
        steady: lines('steady', 0),
        broken: lines('broken', 3),
      },
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function together(...names: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, failed) => {
    const child = spawn(TSX, [SCRIPT, ...names], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) => done({ code, stdout }));
  });
}

describe('run-together', () => {
  it('runs scripts at the same time and prints each one whole, the first to end first', async () => {
    // One after the other, `slow` (first) would wait for ever for what `quick` leaves.
    await rm(join(dir, 'quick.done'), { force: true });
    const { code, stdout } = await together('slow', 'quick');
    expect(code).toBe(0);
    const quick = stdout.indexOf('── npm run quick: passed');
    const slow = stdout.indexOf('── npm run slow: passed');
    expect(quick).toBeGreaterThan(-1);
    expect(slow).toBeGreaterThan(quick);
    // Each one's lines together, under its own header.
    expect(stdout.slice(quick, slow)).toMatch(/quick 1\nquick 2\nquick 3\n/);
    expect(stdout.slice(quick, slow)).not.toContain('slow 1');
    expect(stdout.slice(slow)).toMatch(/slow 1\nslow 2\nslow 3\n/);
    expect(stdout).toContain('All passed: slow, quick');
  });

  it('says which failed and exits 1, after the others have ended', async () => {
    const { code, stdout } = await together('broken', 'steady');
    expect(code).toBe(1);
    expect(stdout).toMatch(/── npm run broken: failed \(exit 3\) after/);
    expect(stdout).toMatch(/broken 1\nbroken 2\nbroken 3\n/);
    expect(stdout).toMatch(/── npm run steady: passed/);
    expect(stdout).toMatch(/steady 1\nsteady 2\nsteady 3\n/);
    expect(stdout).toContain('Failed: broken (see above)');
  });
});
