/**
 * Playwright's global setup: compiles the command line once per run into a temporary folder, as the
 * package compiles it (scripts/cli-bundle.ts), and names the compiled entry in `PROTOPLAY_E2E_CLI`, which
 * the test processes inherit (tests/e2e/bridge-processes.ts reads it). The browser tests that start
 * `protoplay bridge`, `protoplay serve` or `protoplay run` as child processes then start that file: about
 * 0.1 s of processor time per start, against about 0.8 s for the sources through tsx, and the bridge tests
 * start two or three processes per test. The returned teardown removes the folder.
 *
 * `PROTOPLAY_TEST_CLI=sources` skips the compilation: the tests then start the sources through tsx
 * (cli/bin/protoplay.js), as a clone of the repository runs them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleCli, CLI_ENTRY } from '../../scripts/cli-bundle';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const choice = process.env.PROTOPLAY_TEST_CLI;
  if (choice === 'sources') return undefined;
  if (choice !== undefined && choice !== '' && choice !== 'compiled') {
    throw new Error(`PROTOPLAY_TEST_CLI must be "compiled" (the default) or "sources", not "${choice}"`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'protoplay-e2e-cli-'));
  await bundleCli(folder, { logLevel: 'error' });
  // The package's `"type": "module"`, which the compiled files need as much as lib/cli does.
  await writeFile(join(folder, 'package.json'), '{ "type": "module" }\n');
  process.env.PROTOPLAY_E2E_CLI = join(folder, CLI_ENTRY);
  return () => rm(folder, { recursive: true, force: true });
}
