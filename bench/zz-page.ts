import { ensureBuild, launchChromium, startPreview, stopPreview } from './browser/page-server';
const OBS = `window.longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });`;
ensureBuild(process.env.OUT ?? undefined);
const server = await startPreview(Number(process.env.BENCH_PORT ?? 4599), process.env.OUT ?? undefined);
const browser = await launchChromium();
try {
  for (const path of process.argv.slice(2)) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(OBS);
    await page.goto(server.url);
    await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForTimeout(1000);
    await page.getByRole('button', { name: 'Import…' }).click();
    const from = await page.evaluate(() => performance.now());
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 500 }); await cdp.send('Profiler.start');
    await page.getByLabel('Open a file').setInputFiles(path);
    await page.getByRole('status').filter({ hasText: /^Opened / }).first().waitFor({ timeout: 600_000 });
    const r = await page.evaluate((from) => { const end = performance.now(); const t = (window as any).longTasks.filter((x: any) => x.start >= from); return { total: end - from, n: t.length, longest: Math.max(0, ...t.map((x: any) => x.duration)) }; }, from);
    const status = await page.getByRole('status').filter({ hasText: /^Opened / }).first().textContent();
    await page.waitForTimeout(3000);
    const after = await page.evaluate((from) => { const t = (window as any).longTasks.filter((x: any) => x.start >= from); return { n: t.length, longest: Math.max(0, ...t.map((x: any) => x.duration)) }; }, from);
    const { profile } = await cdp.send('Profiler.stop');
    (await import('node:fs')).writeFileSync('/tmp/prof/page-' + path.split('/').pop() + '.cpuprofile', JSON.stringify(profile));
    console.log(path, JSON.stringify(r), 'after+3s', JSON.stringify(after), status?.slice(0, 120));
    await page.close();
  }
} finally { await browser.close(); stopPreview(server); }
