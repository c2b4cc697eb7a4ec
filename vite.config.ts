import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
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
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: false },
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // A limit for a test that hangs, not a speed requirement: on a 2-core machine shared with other work a
    // test that boots real workers (the RDDL language service) has taken more than 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
