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
  /** CPU time of the tasks of the page's dedicated workers (the session worker reads and checks files). */
  workerCpuMs: number;
  /** The CPU time of each task, in order. */
  cpuPerTask: number[];
  /**
   * What the longest task (by CPU time) did: the CPU time of each kind of work directly inside it
   * (`FunctionCall`, `FireAnimationFrame`, `Layout`, `Paint`, `MajorGC`...), most first; a script called
   * is named with its function and place (`FunctionCall f index-x.js:1:2345`), as the build names them.
   */
  longestParts: { name: string; cpuMs: number }[];
  /**
   * The tasks over `heavyCpuMs` of CPU (see `traceMainThread`), in order: when each began (ms from the
   * first task traced), its CPU time and its three biggest parts (as in `longestParts`).
   */
  heavy: { atMs: number; cpuMs: number; parts: { name: string; cpuMs: number }[] }[];
}

/** An event of Chromium's trace, as the benches read it. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    name?: string;
    data?: {
      functionName?: string;
      url?: string;
      lineNumber?: number;
      columnNumber?: number;
      /** A `console.timeStamp` mark's text. */
      message?: string;
    };
  };
}

/**
 * Runs `work` while tracing `page`, then sums up the tasks of the page's main thread; those over
 * `heavyCpuMs` of CPU are listed one by one.
 */
export async function traceMainThread(
  browser: Browser,
  page: Page,
  work: () => Promise<void>,
  heavyCpuMs = Infinity,
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
  const pagePid = tasks[0]?.pid;
  const workers = new Set(
    events
      .filter(
        (e) =>
          e.ph === 'M' &&
          e.name === 'thread_name' &&
          e.pid === pagePid &&
          e.args?.name === 'DedicatedWorker thread',
      )
      .map(thread),
  );
  const workerCpuMs = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && workers.has(thread(e)))
    .reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0);
  const cpu = tasks.map((task) => (task.tdur ?? task.dur ?? 0) / 1000);
  const longest = tasks[cpu.indexOf(Math.max(...cpu))];
  return {
    tasks: tasks.length,
    cpuOver50: cpu.filter((ms) => ms > 50).length,
    longestCpuMs: Math.max(0, ...cpu),
    cpuMs: cpu.reduce((sum, ms) => sum + ms, 0),
    workerCpuMs,
    cpuPerTask: cpu,
    longestParts: longest ? partsOf(longest, events) : [],
    heavy: tasks.flatMap((task, i) =>
      cpu[i]! > heavyCpuMs
        ? [
            {
              atMs: (task.ts - tasks[0]!.ts) / 1000,
              cpuMs: cpu[i]!,
              parts: partsOf(task, events).slice(0, 3),
            },
          ]
        : [],
    ),
  };
}

/** The CPU time of the events directly inside `task` (on its thread), summed by name, most first. */
function partsOf(task: TraceEvent, events: TraceEvent[]): { name: string; cpuMs: number }[] {
  const end = task.ts + (task.dur ?? 0);
  const inside = events
    .filter(
      (e) =>
        e !== task &&
        e.ph === 'X' &&
        e.pid === task.pid &&
        e.tid === task.tid &&
        e.ts >= task.ts &&
        e.ts + (e.dur ?? 0) <= end,
    )
    // Outer events first where two start together.
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const sums = new Map<string, number>();
  // The events still open around the one looked at: an event with none is directly inside the task.
  const open: TraceEvent[] = [];
  for (const e of inside) {
    while (open.length && open[open.length - 1]!.ts + (open[open.length - 1]!.dur ?? 0) <= e.ts) open.pop();
    // The work directly inside the task, and the outermost script calls deeper in it (marked with `>`:
    // their time is part of the event around them).
    const outermostCall = e.name === 'FunctionCall' && !open.some((o) => o.name === 'FunctionCall');
    if (open.length === 0 || outermostCall) {
      const name = `${open.length ? '> ' : ''}${nameOf(e)}`;
      sums.set(name, (sums.get(name) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
    }
    open.push(e);
  }
  return [...sums].map(([name, cpuMs]) => ({ name, cpuMs })).sort((a, b) => b.cpuMs - a.cpuMs);
}

/** An event's name, with the function and place of the script it called when it called one. */
function nameOf(e: TraceEvent): string {
  const data = e.args?.data;
  if (e.name !== 'FunctionCall' || !data?.url) return e.name;
  const file = data.url.slice(data.url.lastIndexOf('/') + 1);
  return `${e.name} ${data.functionName || '(anonymous)'} ${file}:${data.lineNumber ?? 0}:${data.columnNumber ?? 0}`;
}
