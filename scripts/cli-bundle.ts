/**
 * Compiling the command line into one folder of ES modules: what the package ships (`lib/cli`, by
 * scripts/build-package.ts) and what the Vitest run spawns (tests/setup/compiled-cli.ts), alike.
 *
 * One bundle per entry with a shared chunk per lazily loaded command, all in one folder. The threads are
 * entries too (one policy thread for every protocol, and the evaluation thread): the sources name each
 * thread's file relative to the module that starts it (`new URL('./policy-thread-entry.js',
 * import.meta.url)`), and in one flat folder that name finds the compiled thread, so the names are unique
 * across cli/.
 */
import { build, type BuildOptions, type BuildResult } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rawText } from './raw-text-plugin';

const root = resolve(import.meta.dirname, '..');

/** The compiled entry a user's `protoplay` starts, in the output folder. */
export const CLI_ENTRY = 'protoplay.js';

/**
 * How the command line's code is bundled: ES modules for Node with their dependencies inside (some are
 * hundreds of small modules, the RDDL parser's lodash-es, the policy compiler, and one file each way
 * starts much faster than resolving them all).
 */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [rawText],
  logLevel: 'warning',
  legalComments: 'none',
  packages: 'bundle',
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS modules call require() for Node's built-in modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
};

/** Compiles the command line into `outdir` (which it does not empty first). */
export async function bundleCli(
  outdir: string,
  options: Pick<BuildOptions, 'metafile' | 'logLevel'> = {},
): Promise<BuildResult> {
  const result = await build({
    ...NODE_BUNDLE,
    ...options,
    entryPoints: {
      [CLI_ENTRY.replace(/\.js$/, '')]: join(root, 'cli/protoplay.ts'),
      'policy-thread-entry': join(root, 'cli/policy/policy-thread.ts'),
      'evaluation-thread-entry': join(root, 'cli/evaluate/evaluation-thread.ts'),
    },
    outdir,
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
  });
  checkThreadEntries(join(root, 'cli'), outdir);
  return result;
}

/** Every thread entry file of the sources has its compiled namesake, or a command would fail at run time. */
function checkThreadEntries(sources: string, compiled: string): void {
  const entries = readdirSync(sources, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('-thread-entry.js'),
  );
  for (const entry of entries) {
    const name = entry.slice(entry.lastIndexOf('/') + 1);
    if (!existsSync(join(compiled, name))) {
      throw new Error(`cli/${entry} has no compiled counterpart ${name}: add it to the entry points`);
    }
  }
}
