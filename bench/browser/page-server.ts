/**
 * The production build served for browser benchmarks: built when older than its sources, served by vite
 * preview on loopback, and the Chromium that opens it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A running preview server. */
export interface PreviewServer {
  url: string;
  process: ChildProcess;
}

/** The newest modification time under a directory (for "is the build older than the sources?"). */
function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    return Math.max(newest, time);
  }, 0);
}

/**
 * Builds the app into `outDir` (default `dist/`) unless the build there is newer than every source it is
 * built from. A benchmark may build into a folder of its own when another build of `dist/` may be under way.
 */
export function ensureBuild(outDir = DIST): void {
  const built = join(outDir, 'index.html');
  const sources = Math.max(...['src', 'workers'].map((dir) => newestMtime(join(ROOT, dir))));
  if (existsSync(built) && statSync(built).mtimeMs > sources) return;
  console.log(`building the app into ${relative(ROOT, outDir)}/ (missing or older than the sources)...`);
  const result = spawnSync(
    'npx',
    ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('vite build failed');
}

/** Serves the build in `outDir` (default `dist/`) with vite preview on loopback; resolves once it answers. */
export async function startPreview(
  port = Number(process.env.BENCH_PORT ?? 4189),
  outDir = DIST,
): Promise<PreviewServer> {
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', outDir],
    { cwd: ROOT, stdio: 'ignore', detached: true },
  );
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(url)).ok) return { url, process: child };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not start on port ${port}`);
}

/** Stops the preview server and the processes it started. */
export function stopPreview(server: PreviewServer): void {
  try {
    if (server.process.pid) process.kill(-server.process.pid);
  } catch {
    // already gone
  }
}

/** Chromium for benchmarks: `CHROMIUM_PATH` (default the system one), or Playwright's own when empty. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    args: ['--no-sandbox', '--disable-gpu'],
  });
}
