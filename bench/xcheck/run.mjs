// `npm run xcheck`: the fidelity comparison of tcpsim against ns-3 3.44. Each row of the matrix
// (bench/xcheck/matrix.mjs: scenario × algorithm) runs in both simulators, one after the other and
// niced; a table per row sets tcpsim's completion time, goodput, retransmissions, drops and
// timeouts beside ns-3's, and an SVG overlays the two congestion windows. docs/FIDELITY.md has the
// results and the reasons for every difference.
//
//   npm run xcheck -- [--only ALGO,...] [--scenario NAME,...] [-o DIR] [--tcpsim PATH]
//                     [--tcpsim-only] [--fresh] [--list]
//
// A row whose algorithm tcpsim does not know yet shows tcpsim's validation error instead of its
// numbers. ns-3's results are kept in DIR/rows/<row>/ (a row that shares another's ns-3 run, as
// `cubic-linux` shares `cubic`'s TcpCubic, reads that row's) and reused while the specification,
// bench/ns3/{xcheck,dumbbell}.py and the ns-3 version (bench/ns3/setup.sh) are unchanged (ns-3
// runs are deterministic); --fresh runs ns-3 again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { ALGORITHMS, SCENARIOS, ns3RowId, ns3Spec, rows, tcpsimScenario } from './matrix.mjs';
import {
  TOLERANCE_PERCENT,
  formatDiff,
  formatTable,
  fromNs3,
  fromTcpsim,
  metricRows,
  metricMarkdown,
  metricTable,
  withinTolerance,
} from './report.mjs';
import { overlaySvg, stepPoints } from './svg.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ns3Runner = join(root, 'bench/ns3/xcheck.py');

const USAGE = `usage: npm run xcheck -- [options]
  --only ALGO[,ALGO]        algorithms: ${Object.keys(ALGORITHMS).join(', ')} (default all)
  --scenario NAME[,NAME]    scenarios: ${Object.keys(SCENARIOS).join(', ')} (default all)
  -o, --out DIR             tables, SVG overlays and run files (default build/xcheck)
  --tcpsim PATH             the tcpsim binary (default build/release/tcpsim)
  --tcpsim-only             run tcpsim only (no ns-3 columns)
  --fresh                   run ns-3 again even where its results are kept
  --list                    print the matrix and exit`;

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      scenario: { type: 'string' },
      out: { type: 'string', short: 'o', default: 'build/xcheck' },
      tcpsim: { type: 'string', default: join(root, 'build/release/tcpsim') },
      'tcpsim-only': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const list = (s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
  return { ...values, algorithms: list(values.only), scenarios: list(values.scenario) };
}

const log = (msg) => process.stderr.write(`xcheck: ${msg}\n`);

// Runs niced (these machines are shared; never two simulators at once).
function runNiced(cmd, args) {
  const started = process.hrtime.bigint();
  const r = spawnSync('nice', ['-n', '10', cmd, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return { ...r, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

// tcpsim's side: its summary and window series, or the one line it printed on refusing the row.
function runTcpsim(opts, row, dir) {
  const scenarioPath = join(dir, 'scenario.json');
  writeFileSync(scenarioPath, JSON.stringify(tcpsimScenario(row), null, 2) + '\n');
  const outDir = join(dir, 'tcpsim');
  const r = runNiced(opts.tcpsim, ['run', scenarioPath, '--trace', 'series', '-o', outDir]);
  if (r.status !== 0) {
    const line = r.stderr.trim().split('\n').pop() ?? '';
    return { error: line || `tcpsim exited with ${r.status ?? r.signal}`, status: r.status };
  }
  return {
    summary: JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8')),
    series: JSON.parse(readFileSync(join(outDir, 'series.json'), 'utf8')),
    seconds: r.seconds,
  };
}

function ns3Python() {
  const r = spawnSync('bash', [join(root, 'bench/ns3/setup.sh')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('bench/ns3/setup.sh failed (see above); xcheck needs the ns-3 venv');
  return r.stdout.trim().split('\n').pop();
}

// ns-3's side, from the kept result when its inputs are unchanged. Rows that share one ns-3 run
// (matrix.mjs ns3RowId()) keep it in that run's row directory.
function runNs3(opts, python, row, out) {
  const dir = join(out, 'rows', ns3RowId(row));
  mkdirSync(dir, { recursive: true });
  const spec = ns3Spec(row);
  const specText = JSON.stringify(spec, null, 2) + '\n';
  const key = createHash('sha256')
    .update(specText)
    .update(readFileSync(ns3Runner))
    .update(readFileSync(join(root, 'bench/ns3/dumbbell.py')))
    .update(readFileSync(join(root, 'bench/ns3/setup.sh')))
    .digest('hex');
  const resultPath = join(dir, 'ns3.json');
  const keyPath = join(dir, 'ns3.key');
  if (!opts.fresh && existsSync(resultPath) && existsSync(keyPath) && readFileSync(keyPath, 'utf8') === key) {
    return { result: JSON.parse(readFileSync(resultPath, 'utf8')), kept: true };
  }
  const specPath = join(dir, 'ns3-spec.json');
  writeFileSync(specPath, specText);
  log(`${row.id}: running ns-3 (importing its bindings alone takes tens of seconds)`);
  const r = runNiced(python, [ns3Runner, specPath, resultPath]);
  if (r.status !== 0) {
    throw new Error(`ns-3 failed on ${row.id} (exit ${r.status}):\n${r.stderr.split('\n').slice(-15).join('\n')}`);
  }
  writeFileSync(keyPath, key);
  return { result: JSON.parse(readFileSync(resultPath, 'utf8')), kept: false, seconds: r.seconds };
}

// Each flow's window from tcpsim's series.json, in segments over seconds.
function tcpsimWindows(series, flows, mss, endsS) {
  return flows.map((_, i) => {
    const id = series.flows.indexOf(`flow${i}`);
    const t = [];
    const w = [];
    series.tcp.flow.forEach((f, k) => {
      if (f !== id) return;
      t.push(series.tcp.timeNs[k] / 1e9);
      w.push(series.tcp.cwndBytes[k] / mss);
    });
    return stepPoints(t, w, endsS[i]);
  });
}

function ns3Windows(result, mss, endsS) {
  return result.flows.map((f, i) =>
    stepPoints(
      f.cwnd.timeNs.map((x) => x / 1e9),
      f.cwnd.cwndBytes.map((x) => x / mss),
      endsS[i],
    ),
  );
}

function writeOverlay(path, row, ours, theirs) {
  const s = SCENARIOS[row.scenario];
  const mss = s.tcp.mssBytes;
  const end = (completion, i) => (completion != null ? s.flows[i].startS + completion : s.durationS);
  const theirEnds = theirs.flows.map((f, i) => end(f.completionTimeS, i));
  const panels = s.flows.map((f, i) => ({
    label: s.flows.length > 1 ? `flow${i} (starts at ${f.startS} s)` : 'the flow',
    series: [],
  }));
  if (ours) {
    const ourEnds = ours.summary.flows.map((f, i) => end(f.completionTimeS, i));
    tcpsimWindows(ours.series, s.flows, mss, ourEnds).forEach((points, i) =>
      panels[i].series.push({ name: 'tcpsim', color: '#1f77b4', points }),
    );
  }
  ns3Windows(theirs, mss, theirEnds).forEach((points, i) =>
    panels[i].series.push({ name: 'ns-3 3.44', color: '#d62728', dash: '5 3', points }),
  );
  const xMax = Math.max(1e-3, ...theirEnds, ...(ours ? ours.summary.flows.map((f, i) => end(f.completionTimeS, i)) : []));
  writeFileSync(
    path,
    overlaySvg({
      title: `${row.id}: congestion window`,
      subtitle: `${s.title}; ${ALGORITHMS[row.algorithm].title}${ours ? '' : ' (tcpsim: not run, see the table)'}`,
      xLabel: 'time (s)',
      yLabel: `cwnd (segments of ${mss} B)`,
      xMax,
      panels,
      // A window above the receive window sends nothing more; ns-3 lets cwnd grow past it while
      // the flow is window-limited (TcpNewReno::IncreaseWindow does not check m_isCwndLimited).
      yClip: (1.25 * s.tcp.receiveWindowBytes) / mss,
      clipNote: 'cut at 1.25 × the receive window: a window beyond it sends nothing more',
    }),
  );
}

function main() {
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
  let matrix;
  try {
    matrix = rows(opts);
  } catch (e) {
    console.error(`xcheck: ${e.message}`);
    process.exit(2);
  }
  if (opts.list) {
    for (const row of matrix) {
      console.log(`${row.id.padEnd(24)} ${SCENARIOS[row.scenario].title}; ${ALGORITHMS[row.algorithm].title}`);
    }
    return;
  }
  if (!existsSync(opts.tcpsim)) {
    console.error(`xcheck: no tcpsim at ${opts.tcpsim} (build it: scripts/build-sim-core release)`);
    process.exit(2);
  }
  const out = resolve(root, opts.out);
  mkdirSync(out, { recursive: true });
  const python = opts['tcpsim-only'] ? null : ns3Python();

  const overview = [];
  const markdown = [];
  let failed = false;
  for (const row of matrix) {
    const dir = join(out, 'rows', row.id);
    mkdirSync(dir, { recursive: true });
    const s = SCENARIOS[row.scenario];
    const algo = ALGORITHMS[row.algorithm];
    const ours = runTcpsim(opts, row, dir);
    // Exit 2 is a refused scenario (the row awaits tcpsim); anything else is a failure of tcpsim.
    if (ours.error && ours.status !== 2) failed = true;
    const oursMetrics = ours.summary ? fromTcpsim(ours.summary) : null;

    console.log(`\n== ${row.id}: ${s.title}; ${algo.title}`);
    if (ours.error) console.log(`tcpsim: ${ours.error}`);
    if (!python) {
      if (oursMetrics) console.log(metricTable(metricRows(oursMetrics, null)));
      continue;
    }
    const theirs = runNs3(opts, python, row, out);
    const theirsMetrics = fromNs3(theirs.result);
    const metrics = metricRows(oursMetrics, theirsMetrics);
    console.log(metricTable(metrics));
    const svg = join(out, `${row.id}.svg`);
    writeOverlay(svg, row, ours.summary ? ours : null, theirs.result);
    console.log(
      `cwnd overlay: ${relative(root, svg)}; ns-3 ${theirs.kept ? 'result kept from an earlier run' : `ran in ${theirs.seconds.toFixed(1)} s`}` +
        ` (${theirs.result.events} events, Run() ${theirs.result.wallSeconds.toFixed(2)} s)`,
    );
    writeFileSync(
      join(out, `${row.id}.json`),
      JSON.stringify(
        {
          row,
          scenario: s.title,
          algorithm: algo.title,
          tcpsimError: ours.error ?? null,
          ns3: { simulator: theirs.result.simulator, events: theirs.result.events, runSeconds: theirs.result.wallSeconds },
          metrics,
        },
        null,
        2,
      ) + '\n',
    );

    const pick = (name) => metrics.filter((m) => m.checked && m.name.startsWith(name));
    const worst = (ms) => (ms.length === 0 ? null : ms.reduce((a, b) => (Math.abs(b.diff ?? 0) > Math.abs(a.diff ?? 0) ? b : a)).diff);
    const verdict = withinTolerance(metrics);
    overview.push([
      row.id,
      ours.error ? 'tcpsim refused the row' : formatDiff(worst(pick('completion time'))),
      ours.error ? '' : formatDiff(worst(pick('goodput'))),
      verdict == null ? 'awaits tcpsim' : verdict ? 'yes' : 'NO',
    ]);
    markdown.push(
      `### ${row.id}\n\n${s.title}; ${algo.title}.\n\n${ours.error ? `tcpsim: \`${ours.error}\`\n\n` : ''}${metricMarkdown(metrics)}\n`,
    );
  }
  if (overview.length > 0) {
    console.log(`\n== overview: the largest difference per row (tolerance ±${TOLERANCE_PERCENT} %)`);
    console.log(formatTable(['row', 'completion time', 'goodput', `within ${TOLERANCE_PERCENT} %`], overview));
    writeFileSync(join(out, 'tables.md'), markdown.join('\n'));
    console.log(`\nmarkdown tables: ${relative(root, join(out, 'tables.md'))}`);
  }
  if (failed) {
    console.error('xcheck: tcpsim failed (not a refused scenario) on a row above');
    process.exit(1);
  }
}

main();
