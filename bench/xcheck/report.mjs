// The fidelity comparison's tables: each simulator's results brought to one shape, the rows of
// metrics with tcpsim beside ns-3 and their difference, and plain-text tables.

// The share of goodput or completion time by which the simulators may differ where both model the
// same algorithm (the design's quality bar; docs/FIDELITY.md explains each larger difference).
export const TOLERANCE_PERCENT = 5;

// One shape for both: per flow its completion time (null without end), goodput, retransmissions
// and timeouts, and the packets dropped anywhere.
export function fromTcpsim(summary) {
  const flows = summary.flows.map((f) => ({
    completionTimeS: f.completionTimeS,
    goodputBps: f.goodputBps,
    retransmissions: f.retransmissions,
    timeouts: f.timeouts,
  }));
  const drops = summary.links.reduce((n, l) => n + l.queueDrops + l.lossDrops, 0);
  return { flows, drops };
}

export function fromNs3(result) {
  const flows = result.flows.map((f) => ({
    completionTimeS: f.completionTimeS,
    goodputBps: f.goodputBps,
    retransmissions: f.retransmissions,
    timeouts: f.timeouts,
  }));
  return { flows, drops: result.drops };
}

// (tcpsim - ns-3) / ns-3 in percent; 0 when both are 0; null when only ns-3's is 0 or either is
// missing.
export function diffPercent(ours, theirs) {
  if (ours == null || theirs == null) return null;
  if (theirs === 0) return ours === 0 ? 0 : null;
  return ((ours - theirs) / Math.abs(theirs)) * 100;
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// The metric rows of one matrix row. `ours` is null when tcpsim could not run it (its error is
// shown instead), `theirs` when ns-3 was not run. `checked` marks the rows held to the tolerance.
export function metricRows(ours, theirs) {
  const n = (theirs ?? ours).flows.length;
  const rows = [];
  const add = (name, unit, pick, checked = false, scale = 1) => {
    const o = ours ? pick(ours) : null;
    const t = theirs ? pick(theirs) : null;
    rows.push({
      name,
      unit,
      ours: o == null ? null : o / scale,
      theirs: t == null ? null : t / scale,
      diff: diffPercent(o, t),
      checked,
    });
  };
  for (let i = 0; i < n; ++i) {
    const suffix = n > 1 ? ` flow${i}` : '';
    if ([ours, theirs].some((r) => r?.flows[i]?.completionTimeS != null)) {
      add(`completion time${suffix}`, 's', (r) => r.flows[i]?.completionTimeS, true);
    }
    add(`goodput${suffix}`, 'Mb/s', (r) => r.flows[i]?.goodputBps, true, 1e6);
  }
  if (n > 1) add('goodput, all flows', 'Mb/s', (r) => sum(r.flows.map((f) => f.goodputBps)), true, 1e6);
  add('retransmissions', '', (r) => sum(r.flows.map((f) => f.retransmissions)));
  add('drops', '', (r) => r.drops);
  add('timeouts', '', (r) => sum(r.flows.map((f) => f.timeouts)));
  return rows;
}

// Whether every checked metric is within the tolerance (null when tcpsim did not run).
export function withinTolerance(rows) {
  const checked = rows.filter((r) => r.checked);
  if (checked.some((r) => r.ours == null)) return null;
  return checked.every((r) => r.diff != null && Math.abs(r.diff) <= TOLERANCE_PERCENT);
}

export function formatNumber(x, unit) {
  if (x == null) return '—';
  if (unit === '') return String(x);
  if (unit === 's') return x.toFixed(4);
  return x.toPrecision(4);
}

// Signed, one decimal (two below 1 %, so that a small difference does not read as none).
export function formatDiff(d) {
  if (d == null) return '—';
  if (d === 0) return '0 %';
  const size = Math.abs(d);
  return `${d > 0 ? '+' : '−'}${size.toFixed(size < 1 ? 2 : 1)} %`;
}

// Columns padded to their widest cell: the first left-aligned, the others right-aligned.
export function formatTable(header, body) {
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((r) => String(r[c]).length)));
  const line = (r) =>
    r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

const METRIC_HEADER = ['metric', 'tcpsim', 'ns-3', 'difference'];

// A difference beyond the tolerance on a checked metric is marked with an asterisk.
function metricCells(rows) {
  return rows.map((r) => [
    r.unit ? `${r.name} (${r.unit})` : r.name,
    formatNumber(r.ours, r.unit),
    formatNumber(r.theirs, r.unit),
    formatDiff(r.diff) + (r.checked && r.diff != null && Math.abs(r.diff) > TOLERANCE_PERCENT ? ' *' : ''),
  ]);
}

export function metricTable(rows) {
  return formatTable(METRIC_HEADER, metricCells(rows));
}

export function markdownTable(header, body) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, c) => (c === 0 ? '---' : '---:'))), ...body.map(line)].join('\n');
}

export function metricMarkdown(rows) {
  return markdownTable(METRIC_HEADER, metricCells(rows));
}
