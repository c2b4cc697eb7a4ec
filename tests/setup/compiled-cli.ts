/**
 * Vitest's global setup: compiles the command line once per run into a temporary folder, as the package
 * compiles it (scripts/cli-bundle.ts), and hands the compiled entry to the tests (`inject('compiledCli')`,
 * read by tests/cli/run-cli.ts). The tests that start `protoplay` as a child process start that file:
 * about 0.1 s of processor time per start, against about 0.8 s for the sources through tsx, and the CLI
 * tests start dozens of processes. In watch mode the command line is compiled again before each rerun.
 *
 * `PROTOPLAY_TEST_CLI=sources` skips the compilation: the tests then start the sources through tsx
 * (cli/bin/protoplay.js), as a clone of the repository runs them, which is also what a test file run
 * without this setup does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleCli, CLI_ENTRY } from '../../scripts/cli-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled `protoplay` entry (an absolute path), when the command line was compiled. */
    compiledCli?: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const choice = process.env.PROTOPLAY_TEST_CLI;
  if (choice === 'sources') return undefined;
  if (choice !== undefined && choice !== '' && choice !== 'compiled') {
    throw new Error(`PROTOPLAY_TEST_CLI must be "compiled" (the default) or "sources", not "${choice}"`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'protoplay-test-cli-'));
  const compile = async (): Promise<void> => {
    await bundleCli(folder, { logLevel: 'error' });
    // The package's `"type": "module"`, which the compiled files need as much as lib/cli does (a loader
    // such as tsx, which the counter protocol's tests add, reads a .js file outside it as CommonJS).
    await writeFile(join(folder, 'package.json'), '{ "type": "module" }\n');
  };
  await compile();
  project.provide('compiledCli', join(folder, CLI_ENTRY));
  project.onTestsRerun(compile);
  return () => rm(folder, { recursive: true, force: true });
}
