/**
 * The page's Evaluate as a learner runs it: the built app in Chromium, the RDDLSim noop sample on
 * sysadmin (the page's default instance) over many seeds, from Run evaluation until the panel says it is
 * done (the time the panel reports: Web Worker start-up, loading, every episode). Rounds per second with
 * 1 and with 2 Web Workers (the browser's `hardwareConcurrency` set for the page), the 1-worker run the
 * baseline of the same run, and the scaling efficiency; then MASSim matches (2 x 2 agents, 50 steps).
 */
import type { Browser } from 'playwright';
import { formatNumber, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const PORT = Number(process.env.BENCH_PORT ?? 4191);
const SEEDS = Number(process.env.BENCH_PAGE_EVALUATE_SEEDS ?? 300);
const MASSIM_SEEDS = Number(process.env.BENCH_PAGE_EVALUATE_MASSIM_SEEDS ?? 8);

interface Measured {
  units: number;
  seconds: number;
}

/** One evaluation in a fresh page with `workers` Web Workers; `setUp` picks the protocol and the policy. */
async function evaluateInPage(
  browser: Browser,
  url: string,
  workers: number,
  seeds: number,
  setUp: (page: import('playwright').Page) => Promise<void>,
): Promise<Measured> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript((n) => {
      Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n });
    }, workers);
    await page.goto(url);
    await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await setUp(page);
    await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Evaluate' });
    await panel.getByLabel('First seed').fill('1');
    await panel.getByLabel('Last seed').fill(String(seeds));
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    const status = panel.getByRole('status').filter({ hasText: /episodes – done in/ });
    await status.waitFor({ timeout: 600_000 });
    const seconds = Number(/done in ([\d.]+) s/.exec((await status.textContent()) ?? '')![1]);
    const row = panel
      .getByRole('table', { name: 'Evaluation results' })
      .getByRole('row', { name: /current code/ });
    const units = Number(await row.getByRole('cell').first().textContent());
    if (units === 0) throw new Error('no unit was played');
    return { units, seconds };
  } finally {
    await context.close();
  }
}

export default async function bench(): Promise<void> {
  ensureBuild();
  const server = await startPreview(PORT);
  const browser = await launchChromium();
  try {
    const rddl = async (page: import('playwright').Page) => {
      await page
        .getByRole('group', { name: 'Sample policies' })
        .getByRole('button', { name: 'Noop' })
        .click();
    };
    const massim = async (page: import('playwright').Page) => {
      await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
      await page.getByText('Match settings').click();
      for (const [name, value] of [
        ['Agents per team', '2'],
        ['Steps', '50'],
      ] as const) {
        const field = page.getByRole('spinbutton', { name, exact: true });
        await field.fill(value);
        await field.press('Tab');
      }
      await page.getByText('Match settings').click();
    };
    // Warm the browser's code caches once.
    await evaluateInPage(browser, server.url, 1, 20, rddl);
    const rows: (string | number)[][] = [
      ['evaluation', 'Web Workers', 'units', 'seconds', 'units/s', 'vs 1 worker'],
    ];
    for (const [label, seeds, setUp] of [
      [`RDDLSim sysadmin, noop, ${SEEDS} seeds x 1 round`, SEEDS, rddl],
      [`MASSim 2 x 2 agents, 50 steps, ${MASSIM_SEEDS} seeds x 2 matches`, MASSIM_SEEDS, massim],
    ] as const) {
      const one = await evaluateInPage(browser, server.url, 1, seeds, setUp);
      const two = await evaluateInPage(browser, server.url, 2, seeds, setUp);
      const rate = (m: Measured) => m.units / m.seconds;
      for (const [workers, m] of [
        [1, one],
        [2, two],
      ] as const)
        rows.push([
          label,
          workers,
          m.units,
          m.seconds.toFixed(2),
          rate(m),
          `${(rate(m) / rate(one)).toFixed(2)}x`,
        ]);
      console.log(
        `${label}: scaling efficiency, 2 workers vs 1: ${formatNumber((100 * rate(two)) / (2 * rate(one)))}%`,
      );
    }
    printTable('Evaluate in the page (built app, Chromium)', rows);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
