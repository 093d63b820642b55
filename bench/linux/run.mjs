// `npm run calibrate:linux`: tcpsim against the Linux kernel. Every case of the matrix
// (bench/linux/matrix.mjs: path × congestion control × transfer) runs REPS times over the
// network-namespace testbed (bench/linux/testbed.mjs: the kernel's own TCP, a real-time delay line,
// tbf + pfifo) and once in tcpsim with the `linux` profile; a table per case sets the kernel's
// min / median / max beside tcpsim for completion time or goodput, retransmissions, the first
// retransmission and the window at the end of slow start, against the targets, and an SVG overlays
// the kernel's windows and tcpsim's. docs/FIDELITY.md ("against Linux") has the results and the
// reasons for every difference.
//
//   npm run calibrate:linux -- [--cases PATTERN[,PATTERN]] [--reps N] [-o DIR] [--tcpsim PATH]
//                              [--tcpsim-only] [--store] [--list]
//   CASES='10m-20ms-*' npm run calibrate:linux
//
// The kernel's runs are real time and noisy: each run's line shows the delay line's lateness (how
// late packets left against their due time) and the load average, and a run whose delay line was
// late by more than LATE_P99_LIMIT_US at the 99th percentile runs again (twice at most; the table
// marks a case that kept a disturbed run). The kernel's results are kept in DIR/kernel/<case>.json;
// --tcpsim-only reuses them (to iterate on tcpsim's side in seconds). --store writes the whole
// matrix's figures and thinned windows to web/src/data/linux-calibration.json, which the dashboard's
// "tcpsim against Linux" page shows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { METRICS, TARGETS, caseRows, kernelMetrics, offPercent, spread, tcpsimMetrics } from './calibration.mjs';
import { ALGORITHMS, DEFAULT_HZ, MSS_BYTES, PATHS, REPETITIONS, TRANSFERS, cases, matches, tcpsimScenario, testbedPath } from './matrix.mjs';
import { REUSE_BYTES, REUSE_CASES, REUSE_PATH, kernelReuse, reuseScenario, tcpsimReuse } from './metrics.mjs';
import { Testbed, cleanupLeftovers, kernelHz, unavailableReason } from './testbed.mjs';
import { formatDiff, formatTable, markdownTable } from '../xcheck/report.mjs';
import { overlaySvg, stepPoints, thin } from '../xcheck/svg.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const LATE_P99_LIMIT_US = 500;
const STORED = join(root, 'web/src/data/linux-calibration.json');
const RERUNS = 2;

const USAGE = `usage: npm run calibrate:linux -- [options]   (or CASES=PATTERN npm run calibrate:linux)
  --cases PATTERN[,PATTERN]  cases <path>-<algorithm>-<transfer>, * matching anything (default all):
                             paths ${Object.keys(PATHS).join(', ')}; algorithms ${Object.keys(ALGORITHMS).join(', ')};
                             transfers ${Object.keys(TRANSFERS).join(', ')}
  --reps N                   kernel runs per case (default ${REPETITIONS})
  -o, --out DIR              tables, SVG overlays and run files (default build/calibrate-linux)
  --tcpsim PATH              the tcpsim binary (default build/release/tcpsim)
  --tcpsim-only              reuse the kernel's kept results; run tcpsim only
  --store                    write the figures and windows for the dashboard (web/src/data/linux-calibration.json)
  --list                     print the matrix and exit`;

const log = (msg) => process.stderr.write(`calibrate:linux: ${msg}\n`);
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      cases: { type: 'string', default: process.env.CASES || undefined },
      reps: { type: 'string', default: String(REPETITIONS) },
      out: { type: 'string', short: 'o', default: 'build/calibrate-linux' },
      tcpsim: { type: 'string', default: join(root, 'build/release/tcpsim') },
      'tcpsim-only': { type: 'boolean', default: false },
      store: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const reps = Number(values.reps);
  if (!Number.isInteger(reps) || reps < 1 || reps > 20) throw new Error('--reps must be an integer from 1 to 20');
  return { ...values, reps };
}

// The kernel's runs of every selected case, path by path (one testbed per path).
async function runKernel(selected, opts, out) {
  const removed = cleanupLeftovers();
  if (removed.length > 0) log(`removed what earlier runs left: ${removed.join(', ')}`);
  const byPath = groupBy(selected, (c) => c.path);
  for (const [pathName, pathCases] of byPath) {
    const path = testbedPath(pathCases[0]);
    const testbed = new Testbed();
    log(`${pathName}: testbed up (${PATHS[pathName].title}; delay line ${path.delayMs} ms each way plus one transmission, pfifo limit ${path.queuePackets + 1})`);
    await testbed.up(path);
    try {
      const results = new Map(pathCases.map((c) => [c.id, []]));
      // Repetitions outermost, so that a spell of load spreads over the cases rather than one.
      for (let rep = 0; rep < opts.reps; ++rep) {
        for (const c of pathCases) {
          const transfer = TRANSFERS[c.transfer];
          let attempt = 0;
          for (;;) {
            await testbed.delayReport(); // a fresh count for this run
            const loadBefore = loadAverage();
            const run = await testbed.transfer({ cc: ALGORITHMS[c.algorithm].cc, bytes: transfer.bytes, seconds: transfer.seconds });
            const delay = await testbed.delayReport();
            const metrics = kernelMetrics(run, transfer);
            const disturbed = delay.lateUs.p99 > LATE_P99_LIMIT_US;
            const record = { ...metrics, delayLine: delay, loadBefore, loadAfter: loadAverage(), attempt, disturbed };
            console.log(
              `${c.id} run ${rep + 1}/${opts.reps}${attempt ? ` (again, ${attempt})` : ''}: ` +
                (metrics.completionS != null ? `${metrics.completionS.toFixed(4)} s` : `${(metrics.goodputBps / 1e6).toFixed(3)} Mb/s`) +
                `, ${metrics.retransmissions} retransmissions, min RTT ${metrics.minRttMs.toFixed(3)} ms;` +
                ` delay line late p50 ${delay.lateUs.p50} µs, p99 ${delay.lateUs.p99} µs, max ${delay.lateUs.max.toFixed(0)} µs` +
                ` over ${delay.lateUs.count} packets; load ${loadBefore[0]}${disturbed ? '  DISTURBED' : ''}`,
            );
            if (!disturbed || attempt >= RERUNS) {
              results.get(c.id).push(record);
              break;
            }
            ++attempt;
          }
        }
      }
      for (const c of pathCases) {
        const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
        const measuredOn = new Date().toISOString().slice(0, 10);
        writeFileSync(join(out, 'kernel', `${c.id}.json`), JSON.stringify({ case: c, path, kernel, hz: kernelHz(), measuredOn, runs: results.get(c.id) }) + '\n');
      }
    } finally {
      const { delay } = await testbed.down();
      if (delay) log(`${pathName}: testbed down; the delay line's last count: p99 ${delay.lateUs.p99} µs over ${delay.lateUs.count} packets`);
    }
  }
}

// The kernel's tcp_metrics pairs, on a testbed of their path.
async function runKernelReuse(selected, opts, out) {
  if (selected.length === 0) return;
  const path = testbedPath({ path: REUSE_PATH });
  const testbed = new Testbed();
  log(`tcp_metrics: testbed up (${PATHS[REUSE_PATH].title})`);
  await testbed.up(path);
  try {
    for (const id of selected) {
      const runs = [];
      for (let rep = 0; rep < opts.reps; ++rep) {
        await testbed.delayReport();
        const loadBefore = loadAverage();
        const r = await kernelReuse(testbed, REUSE_CASES[id]);
        const delay = await testbed.delayReport();
        console.log(
          `${id} run ${rep + 1}/${opts.reps}: cached rtt ${r.cached?.rttUs} µs, ssthresh ${r.cached?.ssthresh ?? '—'};` +
            ` second connection: first RTO ${r.second.initialRtoMs} ms, ssthresh ${r.second.initialSsthresh ?? '—'}, ${r.second.completionS.toFixed(4)} s;` +
            ` delay line p99 ${delay.lateUs.p99} µs; load ${loadBefore[0]}`,
        );
        runs.push({ ...r, delayLine: delay, loadBefore });
      }
      const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(join(out, 'kernel', `${id}.json`), JSON.stringify({ id, kernel, hz: kernelHz(), measuredOn: new Date().toISOString().slice(0, 10), runs }) + '\n');
    }
  } finally {
    await testbed.down();
  }
}

function runTcpsimSummary(opts, scenario, dir) {
  mkdirSync(dir, { recursive: true });
  const scenarioPath = join(dir, 'scenario.json');
  writeFileSync(scenarioPath, JSON.stringify(scenario, null, 2) + '\n');
  const r = spawnSync('nice', ['-n', '10', opts.tcpsim, 'run', scenarioPath], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`tcpsim failed on ${scenarioPath}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

// The tcp_metrics table of one case: the kernel's spread beside tcpsim.
function reuseReport(opts, id, out) {
  const keptPath = join(out, 'kernel', `${id}.json`);
  if (!existsSync(keptPath)) {
    console.log(`\n== ${id}: no kernel results kept (run without --tcpsim-only)`);
    return null;
  }
  const kept = JSON.parse(readFileSync(keptPath, 'utf8'));
  const c = REUSE_CASES[id];
  const dir = join(out, 'tcpsim', id);
  const hz = keptHz(kept);
  const pair = runTcpsimSummary(opts, reuseScenario(c, { hz }), join(dir, 'pair'));
  const firstOnly = runTcpsimSummary(opts, reuseScenario(c, { secondTransfer: false, hz }), join(dir, 'first'));
  const ours = tcpsimReuse(pair, firstOnly);
  const rows = [
    ['cached RTT (ms)', (r) => r.cached?.rttUs / 1000, null],
    ['cached RTTVAR (ms)', (r) => r.cached?.rttvarUs / 1000, null],
    ['cached ssthresh (segments)', (r) => r.cached?.ssthresh ?? null, null],
    ['cached cwnd (segments)', (r) => r.cached?.cwnd ?? null, null],
    ['second: first RTO (ms)', (r) => r.second.initialRtoMs, null],
    ['second: initial ssthresh (segments)', (r) => r.second.initialSsthresh, TARGETS.ssExitCwnd],
    ['second: completion time (s)', (r) => r.second.completionS, TARGETS.completionS],
    ['second: retransmissions', (r) => r.second.retransmissions, TARGETS.retransmissions],
    ['first: completion time (s)', (r) => r.first.completionS, TARGETS.completionS],
  ].map(([name, pick, target]) => {
    const kernel = spread(kept.runs.map(pick));
    const value = pick(ours) ?? null;
    const off = offPercent(value, kernel.median);
    const within = target == null ? null : kernel.median == null && value == null ? true : off != null && Math.abs(off) <= target;
    return { name, kernel, ours: value, off, target, within };
  });
  const f = (v) => (v == null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 4 : 2));
  console.log(`\n== ${id}: ${c.title}; ${PATHS[REUSE_PATH].title}; ${ALGORITHMS.cubic.title}; two ${REUSE_BYTES} B transfers`);
  const cells = rows.map((r) => [r.name, f(r.kernel.min), f(r.kernel.median), f(r.kernel.max), f(r.ours), formatDiff(r.off), r.target == null ? '' : `±${r.target} %${r.within === false ? ' NO' : ''}`]);
  console.log(formatTable(HEADER, cells));
  console.log(`tcpsim's first RTO is its summary's initial.rtoS; jiffies of ${hz} Hz`);
  return { id, title: c.title, markdown: `#### \`${id}\`\n\n${c.title}.\n\n${markdownTable(HEADER, cells)}\n`, rows };
}

// One line per case for docs/FIDELITY.md: the checked metrics, kernel median [min–max] and tcpsim.
function overviewMarkdown(stored) {
  const cell = (r) => {
    if (!r) return '';
    const m = METRICS.find((x) => x.key === r.key);
    const k = r.kernel.median == null ? '—' : `${fmt(r.kernel.median, m)} [${fmt(r.kernel.min, m)}–${fmt(r.kernel.max, m)}]`;
    return `${k} / ${fmt(r.ours, m)}${r.within === false ? ' **✗**' : ''}`;
  };
  const body = stored.map((c) => {
    const by = Object.fromEntries(c.rows.map((r) => [r.key, r]));
    const main = by.completionS ?? by.goodputBps;
    return [`\`${c.id}\``, cell(main), cell(by.retransmissions), cell(by.firstRetransmitS), cell(by.ssExitCwnd)];
  });
  return markdownTable(['case', 'completion (s) or goodput (Mb/s)', 'retransmissions', 'first retransmission (s)', 'cwnd at slow-start exit'], body);
}

function groupBy(items, key) {
  const m = new Map();
  for (const it of items) {
    const k = key(it);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(it);
  }
  return m;
}

// The kernel's tick rate for tcpsim's Linux rules: as recorded with the kernel's results, else the
// running kernel's (results kept before it was recorded come from this machine), else CONFIG_HZ's
// most common default.
function keptHz(kept) {
  return kept?.hz ?? kernelHz() ?? DEFAULT_HZ;
}

function runTcpsim(opts, c, dir, hz) {
  mkdirSync(dir, { recursive: true });
  const scenarioPath = join(dir, 'scenario.json');
  writeFileSync(scenarioPath, JSON.stringify(tcpsimScenario(c, { hz }), null, 2) + '\n');
  const r = spawnSync('nice', ['-n', '10', opts.tcpsim, 'run', scenarioPath, '--trace', 'full', '-o', dir], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) return { error: (r.stderr.trim().split('\n').pop() || `tcpsim exited with ${r.status}`), status: r.status };
  const files = {
    summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')),
    series: JSON.parse(readFileSync(join(dir, 'series.json'), 'utf8')),
    traceCsv: readFileSync(join(dir, 'trace.csv'), 'utf8'),
  };
  return { metrics: tcpsimMetrics(files, MSS_BYTES) };
}

const fmt = (v, m) => {
  if (v == null) return '—';
  if (m.unit === 's') return v.toFixed(3);
  if (m.unit === 'Mb/s') return (v / m.scale).toFixed(3);
  if (m.unit === 'segments') return v.toFixed(v % 1 ? 1 : 0);
  return String(v);
};

function rowCells(rows) {
  return rows.map((r) => [
    r.unit ? `${r.name} (${r.unit})` : r.name,
    fmt(r.kernel.min, r),
    fmt(r.kernel.median, r),
    fmt(r.kernel.max, r) + (r.kernel.missing ? ` (${r.kernel.missing} without)` : ''),
    fmt(r.ours, r),
    formatDiff(r.off),
    r.target == null ? '' : `±${r.target} %${r.within === false ? ' NO' : ''}`,
  ]);
}
const HEADER = ['metric', 'kernel min', 'median', 'max', 'tcpsim', 'tcpsim vs median', 'target'];

const KERNEL_COLOURS = ['#d62728', '#ff7f0e', '#8c564b', '#e377c2', '#bcbd22'];

function writeOverlay(path, c, kernelRuns, ours) {
  const t = TRANSFERS[c.transfer];
  const end = (m) => (m.completionS != null ? m.completionS : t.seconds);
  const xMax = Math.max(1e-3, ...kernelRuns.map(end), ...(ours ? [end(ours)] : []));
  const series = kernelRuns.map((r, i) => ({
    name: `kernel run ${i + 1}`,
    color: KERNEL_COLOURS[i % KERNEL_COLOURS.length],
    dash: '5 3',
    points: stepPoints(r.window.tS, r.window.cwnd, end(r)),
  }));
  if (ours) series.push({ name: 'tcpsim (linux)', color: '#1f77b4', points: stepPoints(ours.window.tS, ours.window.cwnd, end(ours)) });
  writeFileSync(
    path,
    overlaySvg({
      title: `${c.id}: congestion window, the Linux kernel and tcpsim`,
      subtitle: `${PATHS[c.path].title}; ${ALGORITHMS[c.algorithm].title}; ${t.title}`,
      xLabel: 'time since connect() / the SYN (s)',
      yLabel: `cwnd (segments of ${MSS_BYTES} B)`,
      xMax,
      panels: [{ label: 'the flow', series }],
    }),
  );
}

// A window thinned for storage (the dashboard's overlays: at most 4 points per 1/200 of the x
// range), held to the run's end.
function thinWindow(w, endS, xMax) {
  const points = thin(w.tS.map((x, i) => [x, w.cwnd[i]]), 0, xMax, 200);
  if (points.length > 0 && endS > points.at(-1)[0]) points.push([endS, points.at(-1)[1]]);
  return { tS: points.map((p) => Number(p[0].toFixed(4))), cwnd: points.map((p) => Number(p[1].toFixed(1))) };
}

async function main() {
  let opts;
  try {
    opts = parse(process.argv.slice(2));
  } catch (e) {
    console.error(`${e.message}\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  let selected;
  let reuse;
  try {
    selected = cases(opts.cases, { extraIds: Object.keys(REUSE_CASES) });
    reuse = Object.keys(REUSE_CASES).filter((id) => !opts.cases || opts.cases.split(',').some((w) => matches(id, w.trim())));
  } catch (e) {
    console.error(`calibrate:linux: ${e.message}`);
    process.exit(2);
  }
  if (opts.list) {
    for (const c of selected) {
      console.log(`${c.id.padEnd(24)} ${PATHS[c.path].title}; ${ALGORITHMS[c.algorithm].title}; ${TRANSFERS[c.transfer].title}`);
    }
    for (const id of reuse) console.log(`${id.padEnd(24)} ${REUSE_CASES[id].title}; ${PATHS[REUSE_PATH].title}; CUBIC; two 1 MB transfers`);
    return;
  }
  if (!existsSync(opts.tcpsim)) {
    console.error(`calibrate:linux: no tcpsim at ${opts.tcpsim} (build it: scripts/build-sim-core release)`);
    process.exit(2);
  }
  const out = resolve(root, opts.out);
  mkdirSync(join(out, 'kernel'), { recursive: true });
  if (!opts['tcpsim-only']) {
    const reason = unavailableReason();
    if (reason) {
      console.error(`calibrate:linux: ${reason}`);
      process.exit(2);
    }
    await runKernel(selected, opts, out);
    await runKernelReuse(reuse, opts, out);
  }

  const overview = [];
  const markdown = [];
  const stored = [];
  let kernelRelease = null;
  let measuredOn = null;
  for (const c of selected) {
    const keptPath = join(out, 'kernel', `${c.id}.json`);
    if (!existsSync(keptPath)) {
      console.log(`\n== ${c.id}: no kernel results kept (run without --tcpsim-only)`);
      continue;
    }
    const kept = JSON.parse(readFileSync(keptPath, 'utf8'));
    const kernelRuns = kept.runs;
    // Results kept before the release and date were recorded: this machine's, the file's date.
    kernelRelease ??= kept.kernel ?? spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
    measuredOn ??= kept.measuredOn ?? statSync(keptPath).mtime.toISOString().slice(0, 10);
    const transfer = TRANSFERS[c.transfer];
    const ours = runTcpsim(opts, c, join(out, 'tcpsim', c.id), keptHz(kept));
    const rows = caseRows(kernelRuns, ours.metrics ?? null, transfer);
    const disturbedRuns = kernelRuns.filter((r) => r.disturbed).length;
    const title = `${PATHS[c.path].title}; ${ALGORITHMS[c.algorithm].title}; ${transfer.title}`;
    console.log(`\n== ${c.id}: ${title}`);
    if (ours.error) console.log(`tcpsim: ${ours.error}`);
    console.log(formatTable(HEADER, rowCells(rows)));
    const late = kernelRuns.map((r) => r.delayLine.lateUs.p99);
    console.log(
      `kernel: min RTT ${kernelRuns.map((r) => r.minRttMs.toFixed(2)).join(' / ')} ms; rwnd-limited ${kernelRuns.map((r) => r.rwndLimitedMs).join(' / ')} ms;` +
        ` delay line p99 late ${late.join(' / ')} µs; load ${kernelRuns.map((r) => r.loadBefore[0]).join(' / ')}` +
        (disturbedRuns ? `; ${disturbedRuns} run(s) disturbed even after ${RERUNS} reruns` : ''),
    );
    const svg = join(out, `${c.id}.svg`);
    writeOverlay(svg, c, kernelRuns, ours.metrics ?? null);
    console.log(`cwnd overlay: ${relative(root, svg)}`);
    const failed = rows.filter((r) => r.within === false).map((r) => r.name);
    overview.push([c.id, ours.error ? 'tcpsim refused the case' : failed.length === 0 ? 'yes' : `NO: ${failed.join(', ')}`]);
    markdown.push(`#### \`${c.id}\`\n\n${title}.\n\n${markdownTable(HEADER, rowCells(rows))}\n`);
    const end = (m) => (m.completionS != null ? m.completionS : transfer.seconds);
    const xMax = Math.max(...kernelRuns.map(end), ...(ours.metrics ? [end(ours.metrics)] : []));
    stored.push({
      id: c.id,
      path: c.path,
      algorithm: c.algorithm,
      transfer: c.transfer,
      title,
      rows: rows.map(({ key, name, unit, kernel, ours: value, off, target, within }) => ({ key, name, unit, kernel, ours: value, off, target, within })),
      kernel: kernelRuns.map((r) => ({
        minRttMs: r.minRttMs,
        delayLineLateUs: r.delayLine.lateUs,
        load: r.loadBefore[0],
        window: thinWindow(r.window, end(r), xMax),
      })),
      tcpsim: ours.metrics ? { window: thinWindow(ours.metrics.window, end(ours.metrics), xMax) } : { error: ours.error },
    });
  }
  for (const id of reuse) {
    const r = reuseReport(opts, id, out);
    if (!r) continue;
    markdown.push(r.markdown);
    const failed = r.rows.filter((x) => x.within === false).map((x) => x.name);
    overview.push([id, failed.length === 0 ? 'yes' : `NO: ${failed.join(', ')}`]);
  }
  if (overview.length > 0) {
    console.log(`\n== overview: within the targets (completion ±${TARGETS.completionS} %, bulk goodput ±${TARGETS.goodputBps} %, retransmissions ±${TARGETS.retransmissions} %, slow-start exit cwnd ±${TARGETS.ssExitCwnd} % of the kernel's median)`);
    console.log(formatTable(['case', 'within the targets'], overview));
    writeFileSync(join(out, 'tables.md'), markdown.join('\n'));
    writeFileSync(join(out, 'overview.md'), overviewMarkdown(stored) + '\n');
    const calibration = JSON.stringify({ kernel: kernelRelease, measuredOn, metrics: METRICS.map((m) => m.key), targets: TARGETS, cases: stored }) + '\n';
    writeFileSync(join(out, 'calibration.json'), calibration);
    console.log(`\nmarkdown tables: ${relative(root, join(out, 'tables.md'))}; figures and windows: ${relative(root, join(out, 'calibration.json'))}`);
    if (opts.store) {
      writeFileSync(STORED, calibration);
      console.log(`stored for the dashboard: ${relative(root, STORED)}`);
    }
  }
}

main().catch((e) => {
  console.error(`calibrate:linux: ${e.stack ?? e.message}`);
  process.exit(1);
});
