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

/** A script that writes three numbered lines, then exits with `code`. */
const lines = (label: string, code: number) =>
  `node -e "for (let i = 1; i <= 3; i++) console.log('${label} ' + i); process.exit(${code})"`;
/**
 * A script that leaves a file, waits for the one `other` leaves, then writes three numbered lines, each
 * a little apart: two such scripts, each waiting for the other, end only if they run at the same time.
 */
const meeting = (label: string, other: string) =>
  `node -e "const fs = require('fs'); fs.writeFileSync('${label}.here', ''); const t = setInterval(() => { if (!fs.existsSync('${other}.here')) return; clearInterval(t); let i = 0; const w = setInterval(() => { console.log('${label} ' + ++i); if (i === 3) clearInterval(w); }, 10); }, 20)"`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-together-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      scripts: {
        ping: meeting('ping', 'pong'),
        pong: meeting('pong', 'ping'),
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
  it('runs scripts at the same time and prints each one whole under its verdict', async () => {
    // One after the other, `ping` (first) would wait for ever for the file `pong` leaves.
    const { code, stdout } = await together('ping', 'pong');
    expect(code).toBe(0);
    // Each one's output is one block under its own header: their lines, written at the same time, do not
    // interleave.
    const blocks = stdout.split(/^── /m).slice(1);
    for (const name of ['ping', 'pong']) {
      const block = blocks.find((text) => text.startsWith(`npm run ${name}: passed in `));
      expect(block).toMatch(new RegExp(`\\n${name} 1\\n${name} 2\\n${name} 3\\n`));
      expect(block).not.toMatch(name === 'ping' ? /pong \d/ : /ping \d/);
    }
    expect(stdout).toContain('All passed: ping, pong');
  }, 60_000);

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
