// The dashboard's speed in Debian's Chromium against the real server, quiet and with another
// process keeping one core busy: load to first plot of the default preset (median of 5 loads), and
// zooming a time–sequence graph of about a million segments (dumbbell-bulk, 85 s); with
// BENCH_LONG=1 also a longer run (BENCH_LONG_DURATION_S, default 170 s: about two million segments,
// the most whose full packet trace fits the WASM module's 1 GB; 400 s, about five million, runs out
// of memory). `npm run bench:render --workspace e2e` (after the builds of web, server and e2e).
// Printed, never asserted.
import { launchBrowser, startServer } from './harness.js';
import { describeZoom, firstPlotTimes, measureZoom, median, openLargeTrace, withLoad } from './measure.js';

const loads = Number(process.env.BENCH_LOADS ?? 5);
const millionS = Number(process.env.BENCH_1M_DURATION_S ?? 85);
const longS = Number(process.env.BENCH_LONG_DURATION_S ?? 170);
// Both renderers side by side, the default first.
const renderers = (process.env.BENCH_RENDERERS ?? 'pixels,canvas2d,webgl2').split(',');

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const load of [false, true]) {
    const label = load ? 'one core busy' : 'quiet';
    const times = await withLoad(load, () => firstPlotTimes(browser, `${server.url}/`, loads));
    console.log(`first plot (default preset, ${label}): ${times.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(times).toFixed(0)} ms`);
  }
  const sizes = [millionS, ...(process.env.BENCH_LONG ? [longS] : [])];
  for (const durationS of sizes) {
    for (const renderer of renderers) {
      const { page, readyMs, close } = await openLargeTrace(browser, server.url, durationS, renderer);
      try {
        console.log(`dumbbell-bulk ${durationS} s (${renderer}): run and plots ready ${readyMs} ms after applying`);
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
