/**
 * The page's main-thread tasks as Chromium's own trace records them, with the CPU time each took. The Long
 * Tasks API reports wall-clock durations: on a machine whose cores are shared with other busy processes a
 * task that computes for 20 ms can last half a second while the thread waits for a core. The trace's
 * thread time of each task (`tdur`) does not wait for the core, so it tells whether the page's own work
 * came in short pieces, whatever the load.
 */
import type { Browser, Page } from '@playwright/test';

/** What the main thread did over a traced stretch. */
export interface MainThreadTasks {
  tasks: number;
  /** Tasks whose CPU time was over 50 ms. */
  cpuOver50: number;
  longestCpuMs: number;
  /** CPU time of all the tasks. */
  cpuMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Runs `work` while tracing `page`, then sums up the tasks of the page's main thread. */
export async function traceMainThread(
  browser: Browser,
  page: Page,
  work: () => Promise<void>,
): Promise<MainThreadTasks> {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  let trace: Buffer;
  try {
    await work();
  } finally {
    trace = await browser.stopTracing();
  }
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const rendererMains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map(thread),
  );
  // The page's main thread is the renderer main thread that ran the most tasks.
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !rendererMains.has(thread(e))) continue;
    const list = byThread.get(thread(e)) ?? [];
    list.push(e);
    byThread.set(thread(e), list);
  }
  const tasks = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const cpu = tasks.map((task) => (task.tdur ?? task.dur ?? 0) / 1000);
  return {
    tasks: tasks.length,
    cpuOver50: cpu.filter((ms) => ms > 50).length,
    longestCpuMs: Math.max(0, ...cpu),
    cpuMs: cpu.reduce((sum, ms) => sum + ms, 0),
  };
}
