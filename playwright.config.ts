import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive the production build (vite preview) in real Chromium. Playwright's own browser
 * download is not needed: set CHROMIUM_PATH, or have a system Chromium at /usr/bin/chromium. On a machine
 * without either, `npx playwright install chromium` and set CHROMIUM_PATH to nothing (empty) to use it.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.E2E_PORT ?? 4179);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time (each test stays serial within its file): most of a browser test is waiting
  // (on workers, timers, the bridge), so two overlap well even on a 2-core machine. E2E_WORKERS=1 runs them
  // one by one.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2) || 1,
  retries: 0,
  // Compiles the command line once for the tests that start `protoplay` as a child process.
  globalSetup: './tests/setup/e2e-compiled-cli.ts',
  reporter: [['list']],
  use: {
    // Every test runs in a fresh browser context, where the build's service worker would install again:
    // fetch, store and compile the whole build (about 15 MB), a third of a test's CPU on a 2-core machine.
    // The tests of offline use and of a sub-path's scope allow it (test.use in their files).
    serviceWorkers: 'block',
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: {
      ...(chromiumPath ? { executablePath: chromiumPath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Files dragged from the desktop (folder-drop.spec.ts, Chromium's DevTools drag of real paths) run on
  // their own, after every other test and with one browser: nothing else competes for the machine while a
  // drag goes on. Run that file alone with `--no-deps` (else the tests it waits for run first).
  projects: [
    { name: 'chromium', testIgnore: /folder-drop\.spec\.ts$/ },
    {
      name: 'drag',
      testMatch: /folder-drop\.spec\.ts$/,
      dependencies: ['chromium'],
      workers: 1,
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
