// `npm run compare:careful-resume`: tcpsim's Careful Resume (RFC 9959) beside an independent
// implementation's, on the path and sizes of the careful-resume-rfc9959 experiment
// (sim-core/scenario/experiments/careful-resume-rfc9959.json). For each measured size it runs the
// experiment's base scenario twice, with the server's scheme `independent` (cold) and
// `careful-resume`, with `--trace series`, and reads the measured transfer's completion time and its
// Careful Resume phases (the series column crPhase) with cwnd and flight size at each change.
// Given the independent implementation's results (one JSON object a line, the fields README.md
// lists), it prints both side by side with their ratio, theirs / ours.
//
//   npm run compare:careful-resume -- [--tcpsim PATH] [--theirs FILE] [--build NAME] [--json]
//
// --theirs defaults to bench/careful-resume/picoquic-results.jsonl, the recorded results of the run
// README.md describes; --build picks the rows of one build of it ("as-published" by default).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const EXPERIMENT = 'careful-resume-rfc9959';
const SIZES = [1000000, 5300000];
// sim-core/sharing/careful_resume.h: enum class CrPhase.
const PHASES = ['normal', 'reconnaissance', 'unvalidated', 'validating', 'safe_retreat'];

const { values: opts } = parseArgs({
  options: {
    tcpsim: { type: 'string', default: join(root, 'build/release/tcpsim') },
    theirs: { type: 'string', default: join(here, 'picoquic-results.jsonl') },
    build: { type: 'string', default: 'as-published' },
    json: { type: 'boolean', default: false },
  },
});

function tcpsim(args, input) {
  const r = spawnSync(opts.tcpsim, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`tcpsim ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// One run of the experiment's base scenario with `scheme` and the measured transfer of `bytes`.
function ours(scheme, bytes) {
  const scenario = JSON.parse(tcpsim(['preset', EXPERIMENT]));
  scenario.hosts.server.sharing.scheme = scheme;
  const measured = scenario.traffic.find((t) => t.name === 'measured');
  measured.bytes = bytes;
  const dir = mkdtempSync(join(tmpdir(), 'cr-compare-'));
  try {
    const summary = JSON.parse(tcpsim(['run', '-', '--trace', 'series', '-o', dir], JSON.stringify(scenario)));
    const series = JSON.parse(readFileSync(join(dir, 'series.json'), 'utf8'));
    const flow = summary.flows.find((f) => f.name === 'measured');
    const start = measured.atS[0];
    const tcp = series.tcp;
    const transitions = [];
    let maxCwnd = 0;
    // Up to the last byte's arrival, where the independent harness stops.
    for (let i = 0; i < tcp.timeNs.length; i++) {
      if (tcp.flow[i] !== flow.id || tcp.endpoint[i] !== 0) continue;
      if (tcp.timeNs[i] / 1e9 - start > flow.completionTimeS) break;
      maxCwnd = Math.max(maxCwnd, tcp.cwndBytes[i]);
      const phase = PHASES[tcp.crPhase[i]];
      if (scheme === 'careful-resume' && (transitions.length === 0 || transitions.at(-1).phase !== phase)) {
        transitions.push({ t: tcp.timeNs[i] / 1e9 - start, phase, cwnd: tcp.cwndBytes[i], inflight: tcp.inFlightBytes[i] });
      }
    }
    return {
      size: bytes,
      mode: scheme === 'careful-resume' ? 'seed' : 'cold',
      completionS: flow.completionTimeS,
      retransmissions: flow.retransmissions,
      maxCwnd,
      transitions,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function theirs() {
  if (!existsSync(opts.theirs)) return [];
  return readFileSync(opts.theirs, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .filter((r) => (r.build ?? 'as-published') === opts.build && r.savedFrom === undefined);
}

const fmt = (v, digits = 3) => (v === undefined || v === null ? '–' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(digits)) : String(v));
const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b !== 0 ? (a / b).toFixed(3) : '–');

// The rows compared for one size: completion times, the jump, each phase's entry time and cwnd.
function rowsFor(size, mine, other) {
  const rows = [];
  const add = (what, a, b) => rows.push([what, fmt(a), fmt(b), ratio(a, b)]);
  const oc = other.find((r) => r.size === size && r.mode === 'cold');
  const os = other.find((r) => r.size === size && r.mode === 'seed');
  add('completion, cold (s)', oc?.completionS, mine.cold.completionS);
  add('completion, resumed (s)', os?.completionS, mine.cr.completionS);
  add('resumed / cold', os && oc ? os.completionS / oc.completionS : undefined, mine.cr.completionS / mine.cold.completionS);
  for (const phase of ['unvalidated', 'validating', 'normal', 'safe_retreat']) {
    const a = os?.transitions.find((x) => x.phase === phase);
    const b = mine.cr.transitions.find((x, i) => i > 0 && x.phase === phase);
    if (a === undefined && b === undefined) continue;
    add(`enters ${phase} at (s)`, a?.t, b?.t);
    add(`  cwnd there (B)`, a?.cwnd, b?.cwnd);
  }
  add('largest cwnd, resumed (B)', os?.maxCwnd, mine.cr.maxCwnd);
  return rows;
}

const other = theirs();
const result = [];
for (const size of SIZES) {
  const mine = { cold: ours('independent', size), cr: ours('careful-resume', size) };
  result.push({ size, ours: mine, theirs: other.filter((r) => r.size === size) });
  if (opts.json) continue;
  console.log(`\n${size} B (theirs: ${other.length > 0 ? `${opts.theirs}, build ${opts.build}` : 'none given'})`);
  const rows = [['', 'theirs', 'ours', 'theirs / ours'], ...rowsFor(size, mine, other)];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [i, r] of rows.entries()) {
    console.log(`| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`);
    if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
}
if (opts.json) console.log(JSON.stringify(result, null, 1));
