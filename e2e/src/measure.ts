// Measurements of the dashboard in the browser, printed and never asserted: load to first plot,
// and the frame times while zooming a large time–sequence graph (the graph's drawn frames and the
// page's), with and without another process keeping one core busy (a loop of native tcpsim runs,
// as a busy machine would have).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from './harness.js';

/** Keeps one core busy with back-to-back `tcpsim run --preset dumbbell-bulk` until stopped. */
export function backgroundLoad(): { stop(): Promise<void> } {
  const tcpsim = process.env.TCPSIM ?? join(repoRoot, 'build/release/tcpsim');
  let child: ChildProcess | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    child = spawn(tcpsim, ['run', '--preset', 'dumbbell-bulk', '--trace', 'none', '--duration', '600'], { stdio: 'ignore' });
    child.once('exit', next);
    child.once('error', () => {
      stopped = true;
    });
  };
  next();
  return {
    async stop() {
      stopped = true;
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export async function withLoad<T>(load: boolean, body: () => Promise<T>): Promise<T> {
  const l = load ? backgroundLoad() : null;
  try {
    if (l) await new Promise((resolve) => setTimeout(resolve, 500));
    return await body();
  } finally {
    await l?.stop();
  }
}

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : NaN;
};
const percentile = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN;
};

/** Milliseconds from navigation start to the first drawn time–sequence graph, per load (fresh contexts). */
export async function firstPlotTimes(browser: Browser, url: string, loads: number): Promise<number[]> {
  return (await firstPlotPhases(browser, url, loads)).map((p) => p.firstDraw);
}

/** When each step towards the first plot happened, in ms from navigation start. */
export interface FirstPlotPhases {
  /** The page's script has run (DOMContentLoaded). */
  script: number;
  /** The simulator's module is compiled (its .wasm fetched and compiled). */
  module: number;
  presetLoaded: number;
  runStart: number;
  runEnd: number;
  firstDraw: number;
}

/** The steps to the first drawn time–sequence graph, per load (fresh contexts). */
export async function firstPlotPhases(browser: Browser, url: string, loads: number): Promise<FirstPlotPhases[]> {
  // One load first, not counted: the server's and the disk's caches warm up.
  loads++;
  const out: FirstPlotPhases[] = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
    const page = await context.newPage();
    try {
      await page.goto(url);
      await page.locator('figure[data-plot="time-sequence"][data-frames]').waitFor({ timeout: 120_000 });
      const phases = await page.evaluate(() => {
        const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm')) as PerformanceResourceTiming | undefined;
        return {
          script: nav?.domContentLoadedEventEnd ?? NaN,
          module: wasm?.responseEnd ?? NaN,
          presetLoaded: at('tcb:preset-loaded'),
          runStart: at('tcb:run-start'),
          runEnd: at('tcb:run-end'),
          firstDraw: at('tcb:first-draw:Time–sequence graph'),
        };
      });
      if (i > 0) out.push(phases);
    } finally {
      await context.close();
    }
  }
  return out;
}

/** The median of each phase, as one line. */
export const describePhases = (phases: FirstPlotPhases[]) =>
  (Object.keys(phases[0] ?? {}) as (keyof FirstPlotPhases)[]).map((k) => `${k} ${median(phases.map((p) => p[k])).toFixed(0)}`).join(', ') + ' ms (medians)';

export interface ZoomFigures {
  segments: number;
  /**
   * The graph's frames: the intervals between the plot's drawn frames (its `plotframe` events,
   * wherever it draws: the plot worker or the page's thread). Frames per second from the median.
   */
  medianFps: number;
  medianFrameMs: number;
  p95FrameMs: number;
  /** The page's frames: the intervals between its animation frames (input, axes, layout). */
  pageMedianFps: number;
  pageP95FrameMs: number;
  /** Redraws of the plot per second while zooming. */
  redrawsPerS: number;
  drawMedianMs: number;
  renderer: string;
  thread: string;
}

/**
 * The address's renderer options for "painter" or "painter@thread" (renderer.ts): "pixels@main" is
 * PixelPainter on the page's thread, "auto" (or nothing) the default (the plot worker).
 */
export function rendererQuery(renderer?: string): string {
  if (!renderer || renderer === 'auto') return '';
  const [painter, thread] = renderer.split('@');
  return `${painter && painter !== 'auto' ? `&renderer=${painter}` : ''}${thread ? `&thread=${thread}` : ''}`;
}

/**
 * Opens dumbbell-bulk for `durationS` simulated seconds at trace level full and waits for its
 * time–sequence graph; returns the page and the time that took.
 */
export async function openLargeTrace(browser: Browser, base: string, durationS: number, renderer?: string): Promise<{ page: Page; readyMs: number; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
  const page = await context.newPage();
  await page.goto(`${base}/?preset=dumbbell-bulk${rendererQuery(renderer)}`);
  await page.locator('#scheme').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'JSON' }).click();
  const scenario = JSON.parse(await page.locator('#json').inputValue());
  scenario.durationS = durationS;
  await page.locator('#json').fill(JSON.stringify(scenario));
  const started = Date.now();
  await page.getByRole('button', { name: 'Apply JSON' }).click();
  await page.waitForFunction(
    (d) => {
      const f = document.querySelector('figure[data-plot="time-sequence"]');
      return !!f && document.querySelector('[data-testid=run-status]')?.textContent === 'up to date' && Number(f.getAttribute('data-segments')) > d && Number(f.getAttribute('data-frames')) > 0;
    },
    durationS * 1000,
    { timeout: 900_000, polling: 500 },
  );
  return { page, readyMs: Date.now() - started, close: () => context.close() };
}

/**
 * Zooms the time–sequence graph with wheel events, one per animation frame of the page, for
 * `seconds`: 25 steps in, 24 out, and so on (never back at the whole run, where a step out would
 * change nothing and draw nothing). Records the graph's frames (the intervals between the plot's
 * drawn frames: what the user sees of the marks) and the page's (between its animation frames).
 */
export async function measureZoom(page: Page, seconds = 3, warmUpSeconds = 1): Promise<ZoomFigures> {
  const fig = page.locator('figure[data-plot="time-sequence"]');
  const segments = Number(await fig.getAttribute('data-segments'));
  // A first zoom, not counted, so that the first measurement of a page (compiled code, memory
  // left by the run) is not unlike the later ones; then from the whole run in view, the costliest
  // frame to draw, whatever an earlier measurement left.
  if (warmUpSeconds > 0) await zoomInPage(page, warmUpSeconds * 1000);
  await fig.locator('.plot-overlay').press('0');
  await page.waitForTimeout(500);
  const m = await zoomInPage(page, seconds * 1000);
  const medianFrameMs = median(m.graphFrames);
  return {
    segments,
    medianFps: 1000 / medianFrameMs,
    medianFrameMs,
    p95FrameMs: percentile(m.graphFrames, 0.95),
    pageMedianFps: 1000 / median(m.pageFrames),
    pageP95FrameMs: percentile(m.pageFrames, 0.95),
    redrawsPerS: m.redraws / m.seconds,
    drawMedianMs: median(m.draws),
    renderer: m.renderer,
    thread: m.thread,
  };
}

/** Zooms in the page for `ms`; the frames seen. */
function zoomInPage(page: Page, ms: number) {
  return page.evaluate(async (ms) => {
    const fig = document.querySelector('figure[data-plot="time-sequence"]') as HTMLElement;
    const overlay = fig.querySelector('.plot-overlay') as HTMLElement;
    const r = overlay.getBoundingClientRect();
    const frames0 = Number(fig.dataset.frames);
    const pageFrames: number[] = [];
    const drawn: number[] = [];
    const draws: number[] = [];
    const onFrame = (e: Event) => {
      const d = (e as CustomEvent<{ at: number; drawMs: number }>).detail;
      drawn.push(d.at);
      draws.push(d.drawMs);
    };
    fig.addEventListener('plotframe', onFrame);
    let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    const t0 = last;
    let i = 0;
    while (last - t0 < ms) {
      overlay.dispatchEvent(
        new WheelEvent('wheel', { deltaY: i % 49 < 25 ? -80 : 80, clientX: r.left + r.width * 0.6, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }),
      );
      i++;
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      pageFrames.push(now - last);
      last = now;
    }
    // The frames asked for in the last animation frame are still being drawn.
    await new Promise((resolve) => setTimeout(resolve, 200));
    fig.removeEventListener('plotframe', onFrame);
    const graphFrames = drawn.filter((at) => at >= t0).map((at, k, a) => (k === 0 ? NaN : at - a[k - 1])).slice(1);
    return {
      pageFrames,
      graphFrames,
      draws,
      redraws: Number(fig.dataset.frames) - frames0,
      seconds: (last - t0) / 1000,
      renderer: fig.dataset.renderer ?? 'canvas2d',
      thread: fig.dataset.thread ?? 'main',
    };
  }, ms);
}

/** The processes descended from this one (Chromium's, launched by playwright-core), by pid. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, p] of parent) if (p === pid) (out.push(child), walk(child));
  };
  walk(root);
  return out;
}

function statusKiB(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/**
 * Memory of Chromium's renderer processes (a page and its Web Workers live in one): the largest
 * peak resident set (VmHWM) and that process's resident set now, in MiB. Linux only.
 */
export function rendererMemory(): { peakMiB: number; nowMiB: number } {
  let best = { peakMiB: 0, nowMiB: 0 };
  for (const pid of descendants(process.pid)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const peak = statusKiB(pid, 'VmHWM') / 1024;
      if (peak > best.peakMiB) best = { peakMiB: peak, nowMiB: statusKiB(pid, 'VmRSS') / 1024 };
    } catch {
      // Gone meanwhile.
    }
  }
  return best;
}

export const describeZoom = (z: ZoomFigures) =>
  `${z.segments} segments, ${z.renderer} on the ${z.thread === 'worker' ? 'plot worker' : 'page’s thread'}: graph median ${z.medianFps.toFixed(1)} frames/s (frame ${z.medianFrameMs.toFixed(1)} ms), p95 frame ${z.p95FrameMs.toFixed(1)} ms; page median ${z.pageMedianFps.toFixed(1)} frames/s, p95 frame ${z.pageP95FrameMs.toFixed(1)} ms; ${z.redrawsPerS.toFixed(1)} redraws/s, draw median ${z.drawMedianMs.toFixed(1)} ms`;

export { median, percentile };

/** What measureLargeRuns saw. */
export interface LargeRunFigures {
  reruns: number;
  /** The longest main-thread task during the first run and its plots, ms. */
  firstLongestMs: number;
  /** The longest main-thread task during the re-runs, ms. */
  rerunLongestMs: number;
  /** Every main-thread task over 50 ms (the Long Tasks API's threshold), in order, ms. */
  longTasksMs: number[];
  /** The page's heap in use after a garbage collection (with typed arrays' backing stores): after the first run, and after the re-runs (MiB). */
  firstHeapMiB: number;
  heapMiB: number;
}

/**
 * dumbbell-bulk as it is (60 s, 20 flows, full trace), run and then re-run three times with the Run
 * button: the longest main-thread task (the Long Tasks API) during the first run's plots and during
 * the re-runs, and the page's heap in use after the first run and after the re-runs, each after a
 * garbage collection (DevTools' Runtime.getHeapUsage: JavaScript objects, the DOM's heap and the
 * typed arrays' backing stores). The targets: no task over 200 ms, a
 * heap under 350 MB. With `profile` a path, the main thread's CPU profile over the whole sequence
 * is written there (a .cpuprofile that Chromium's DevTools opens).
 */
export async function measureLargeRuns(browser: Browser, base: string, profile?: string): Promise<LargeRunFigures> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
  await context.addInitScript(() => {
    const w = window as unknown as { tcbLongTasks: number[] };
    w.tcbLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.tcbLongTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
  }
  const upToDate = async (runs: number) =>
    page.waitForFunction(
      (n) => performance.getEntriesByName('tcb:run-end').length >= n && document.querySelector('[data-testid=run-status]')?.textContent === 'up to date' && !!document.querySelector('figure[data-plot="time-sequence"][data-frames]'),
      runs,
      { timeout: 600_000, polling: 200 },
    );
  const longTasksMs: number[] = [];
  const longest = async () => {
    const tasks = await page.evaluate(() => (window as unknown as { tcbLongTasks: number[] }).tcbLongTasks.splice(0));
    longTasksMs.push(...tasks.map((t) => Math.round(t)));
    return Math.max(0, ...tasks);
  };
  // The page's heap: the JavaScript objects, the embedder's (the DOM's) and the typed arrays'
  // backing stores, which hold a run's columns and which V8 counts outside its own heap.
  const heapMiB = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number };
    return (heap.usedSize + (heap.embedderHeapUsedSize ?? 0) + (heap.backingStorageSize ?? 0)) / 2 ** 20;
  };
  try {
    await page.goto(`${base}/?preset=dumbbell-bulk`);
    await upToDate(1);
    await page.waitForTimeout(2000);
    const firstLongestMs = await longest();
    const firstHeapMiB = await heapMiB();
    const reruns = 3;
    for (let i = 0; i < reruns; i++) {
      await page.locator('[data-testid=run]').click();
      await upToDate(2 + i);
      await page.waitForTimeout(1000);
    }
    const rerunLongestMs = await longest();
    if (profile) {
      const { profile: p } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(profile, JSON.stringify(p));
    }
    return { reruns, firstLongestMs, rerunLongestMs, longTasksMs, firstHeapMiB, heapMiB: await heapMiB() };
  } finally {
    await context.close();
  }
}
