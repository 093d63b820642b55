// The dashboard's speed in Debian's Chromium against the real server, quiet and with another
// process keeping one core busy: load to first plot of the default preset (median of 5 loads), and
// zooming a time–sequence graph of about a million segments (dumbbell-bulk, 85 s); dumbbell-bulk
// as it is run and re-run three times: the longest main-thread task and the page's heap; with
// BENCH_LONG=1 also longer runs (BENCH_LONG_DURATION_S, a comma list, default 400 s: about five
// million data segments, fourteen million trace rows). For each graph: the time from applying the
// scenario to the drawn graph, the renderer process's peak and current resident memory, and the
// zoom's frame rates (the graph's drawn frames and the page's). Renderers side by side in one run
// (BENCH_RENDERERS, "painter" or "painter@thread" as in renderer.ts: "auto" is the default, the
// plot worker; "pixels@main" PixelPainter on the page's thread, the default before the worker).
// `npm run bench:render --workspace e2e` (after the builds of web, server and e2e); with
// BENCH_PARTS (a comma list of "first-plot", "large-runs", "zoom"; all by default) only those parts;
// with BENCH_PROFILE a path, the main thread's CPU profile over the large runs goes there.
// Printed, never asserted.
import { launchBrowser, startServer } from './harness.js';
import { describePhases, describeZoom, firstPlotPhases, measureLargeRuns, measureZoom, median, openLargeTrace, rendererMemory, rendererQuery, withLoad } from './measure.js';

const loads = Number(process.env.BENCH_LOADS ?? 5);
const millionS = Number(process.env.BENCH_1M_DURATION_S ?? 85);
const longS = (process.env.BENCH_LONG_DURATION_S ?? '400').split(',').map(Number);
// The default first, then what it replaced.
const renderers = (process.env.BENCH_RENDERERS ?? 'auto,pixels@main').split(',');
const parts = new Set((process.env.BENCH_PARTS ?? 'first-plot,large-runs,zoom').split(','));

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const load of parts.has('first-plot') ? [false, true] : []) {
    const label = load ? 'one core busy' : 'quiet';
    await withLoad(load, async () => {
      for (const renderer of renderers) {
        const query = rendererQuery(renderer).replace(/^&/, '?');
        const phases = await firstPlotPhases(browser, `${server.url}/${query}`, loads);
        const times = phases.map((p) => p.firstDraw);
        console.log(`first plot (default preset, ${renderer}, ${label}): ${times.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(times).toFixed(0)} ms`);
        console.log(`  steps: ${describePhases(phases)}`);
      }
    });
  }
  // A large run as the preset gives it, and three re-runs: the main thread's longest task and the
  // page's heap, against the targets (no task over 200 ms, a heap under 350 MB).
  const large = parts.has('large-runs') ? await measureLargeRuns(browser, server.url, process.env.BENCH_PROFILE) : null;
  if (large) {
    console.log(
      `dumbbell-bulk run and ${large.reruns} re-runs: longest main-thread task ${large.firstLongestMs.toFixed(0)} ms after the run, ${large.rerunLongestMs.toFixed(0)} ms over the re-runs (target: none over 200 ms); page heap (JS, DOM and array buffers) ${large.firstHeapMiB.toFixed(0)} MiB after the run, ${large.heapMiB.toFixed(0)} MiB after the re-runs (target: under 350 MB)`,
    );
    console.log(`  main-thread tasks over 50 ms: ${large.longTasksMs.join(', ') || 'none'}`);
  }
  const sizes = parts.has('zoom') ? [millionS, ...(process.env.BENCH_LONG ? longS : [])] : [];
  for (const durationS of sizes) {
    for (const renderer of renderers) {
      const { page, readyMs, close } = await openLargeTrace(browser, server.url, durationS, renderer);
      try {
        const memory = rendererMemory();
        console.log(
          `dumbbell-bulk ${durationS} s (${renderer}): run and plots ready ${readyMs} ms after applying; renderer process memory peak ${memory.peakMiB.toFixed(0)} MiB, now ${memory.nowMiB.toFixed(0)} MiB`,
        );
        for (const load of [false, true]) {
          const z = await withLoad(load, () => measureZoom(page, 4));
          console.log(`zoom (${load ? 'one core busy' : 'quiet'}): ${describeZoom(z)}`);
        }
      } finally {
        await close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
