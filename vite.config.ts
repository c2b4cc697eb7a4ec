import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';

/** The module the protocol registry takes its extra protocols from (none in the product). */
const EXTRA_PROTOCOLS_MODULE = resolve(import.meta.dirname, 'src/core/protocols/extra-protocols.ts');

/**
 * Builds the page with protocols from outside `src/` (the tests-only counter protocol) without shipping
 * them: when PROTOPLAY_EXTRA_PROTOCOLS names module files (comma-separated, each exporting a `Protocol` as
 * its default), the registry's `extra-protocols.ts` becomes a module importing them, in the page and in
 * its workers, and the build goes to `dist-extra-protocols/` unless `--outDir` says otherwise. Without the
 * variable the plugin does nothing.
 */
function extraProtocolsPlugin(list = process.env.PROTOPLAY_EXTRA_PROTOCOLS): Plugin {
  const modules = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => resolve(process.cwd(), entry));
  return {
    name: 'protoplay-extra-protocols',
    enforce: 'pre',
    config(config) {
      if (modules.length === 0 || config.build?.outDir) return undefined;
      return { build: { outDir: 'dist-extra-protocols' } };
    },
    load(id) {
      if (modules.length === 0 || id.split('?')[0] !== EXTRA_PROTOCOLS_MODULE) return undefined;
      const imports = modules.map((path, i) => `import protocol${i} from ${JSON.stringify(path)};`);
      const names = modules.map((_, i) => `protocol${i}`).join(', ');
      return `${imports.join('\n')}\nexport const EXTRA_PROTOCOLS = [${names}];\n`;
    },
  };
}

/**
 * The Vitest files that keep a fresh module graph each (project "isolated"); every other file shares its
 * worker's modules with the files run before it (project "shared").
 */
const ISOLATED_TESTS = [
  // The command line and the package: child processes, policy and evaluation threads, the compiled
  // command line (tests/setup/compiled-cli.ts), protocols loaded by id.
  'tests/cli/**/*.test.ts',
  'tests/package/**/*.test.ts',
  // `@vitest/web-worker` runs a Web Worker's modules in the test process: the modules it evaluates
  // again (src/core/errors.ts among them) would replace the shared ones, and the next files' errors would
  // fail `instanceof`.
  'tests/state/protocols/rddlsim/rddl-documents.test.ts',
  'tests/state/protocols/rddlsim/rddl-language-client.test.ts',
];

export default defineConfig({
  plugins: [
    // Protocols from outside src/ (PROTOPLAY_EXTRA_PROTOCOLS), for the end-to-end tests; inert otherwise.
    extraProtocolsPlugin(),
    svelte(),
    // Offline after the first visit: a service worker precaches the whole build (Monaco and the workers
    // included) and serves it when the network is gone. A new build has new file hashes, so the new worker
    // precaches them and takes over at once (autoUpdate); docs/embedding.md, "Offline use", says more.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ttf,wasm,json}'],
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/\/examples\//],
      },
    }),
  ],
  base: './',
  build: {
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
      },
    },
  },
  worker: { format: 'es', plugins: () => [extraProtocolsPlugin()] },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: false },
  test: {
    environment: 'node',
    // A limit for a test that hangs, not a speed requirement: on a 2-core machine shared with other work a
    // test that boots real workers (the RDDL language service) has taken more than 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Vitest's default on a 2-core machine is one worker, but many files mostly wait (child processes,
    // sockets, worker threads): two workers keep both cores busy. No test depends on how fast it runs.
    maxWorkers: 2,
    setupFiles: ['tests/setup/fast-check-seed.ts'],
    // Two projects (docs/testing.md, "Shared modules"). "isolated": each file imports every module afresh
    // (Vitest's default), for the files that start the command line (child processes, threads, protocols
    // loaded on demand) and those that emulate Web Workers in the test process, whose workers evaluate a
    // second copy of the modules they import. "shared": the files of one worker share their modules,
    // which takes about half the processor time of importing them again for each file.
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED_TESTS,
          // Compiles the command line once per run for the tests that start it as a child process.
          globalSetup: ['tests/setup/compiled-cli.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'node_modules/**', ...ISOLATED_TESTS],
          isolate: false,
        },
      },
    ],
  },
});
