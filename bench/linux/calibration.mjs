// The calibration's figures, one shape for the kernel's runs and tcpsim's: completion time and
// goodput, retransmissions, the first retransmission (the sender's first loss detected) and the
// window at the end of slow start, plus the window over time for the overlays; the kernel's
// repetitions as min / median / max beside tcpsim, held to the targets.
import { INFINITE_SSTHRESH } from './trace.mjs';

// The targets: how far tcpsim may be from the kernel's median (docs/FIDELITY.md, "against Linux").
export const TARGETS = {
  completionS: 5,
  goodputBps: 2,
  retransmissions: 25,
  ssExitCwnd: 10,
};

export const METRICS = [
  { key: 'completionS', name: 'completion time', unit: 's', sized: true },
  { key: 'goodputBps', name: 'goodput', unit: 'Mb/s', scale: 1e6, bulk: true },
  { key: 'retransmissions', name: 'retransmissions', unit: '' },
  { key: 'firstRetransmitS', name: 'first retransmission', unit: 's' },
  { key: 'ssExitCwnd', name: 'cwnd at slow-start exit', unit: 'segments' },
];

// The window at the end of slow start: the largest window while ssthresh was still infinite, once
// it has become finite (a loss, HyStart, or BBR leaving Startup); null when slow start never ended.
export function slowStartExit(cwnd, ended) {
  let peak = null;
  for (let i = 0; i < cwnd.length; ++i) {
    if (ended[i]) return peak;
    peak = peak == null ? cwnd[i] : Math.max(peak, cwnd[i]);
  }
  return null;
}

// Bytes the receiver had read by `deadlineNs`, from its per-millisecond progress.
export function bytesBy(receiver, deadlineNs) {
  const ms = Math.floor((deadlineNs - receiver.acceptedNs) / 1e6);
  if (ms <= 0) return 0;
  const p = receiver.progressBytesPerMs;
  return ms - 1 < p.length ? p[ms - 1] : receiver.bytes;
}

// One kernel run (bench/linux/testbed.mjs transfer()): times from the sender's connect().
export function kernelMetrics(run, transfer) {
  const sender = run.senders[0];
  const receiver = run.receivers[0];
  const trace = run.trace[0];
  const start = sender.startNs;
  const out = {
    retransmissions: sender.info.totalRetrans,
    firstRetransmitS: trace.retransmits.length > 0 ? (trace.retransmits[0] - start) / 1e9 : null,
    ssExitCwnd: slowStartExit(trace.probes.cwnd, trace.probes.ssthresh.map((s) => s < INFINITE_SSTHRESH)),
    minRttMs: sender.info.minRtt / 1000,
    rwndLimitedMs: sender.info.rwndLimitedUs / 1000,
    sndbufLimitedMs: sender.info.sndbufLimitedUs / 1000,
    window: { tS: trace.probes.tNs.map((t) => (t - start) / 1e9), cwnd: trace.probes.cwnd },
  };
  if (transfer.bytes != null) {
    if (receiver.bytes !== transfer.bytes) throw new Error(`the receiver read ${receiver.bytes} of ${transfer.bytes} bytes`);
    out.completionS = (receiver.lastByteNs - start) / 1e9;
    out.goodputBps = (transfer.bytes * 8) / out.completionS;
  } else {
    out.completionS = null;
    out.goodputBps = (bytesBy(receiver, start + transfer.seconds * 1e9) * 8) / transfer.seconds;
  }
  return out;
}

// tcpsim's run of the same case: its summary, series.json and trace.csv (trace level full).
export function tcpsimMetrics({ summary, series, traceCsv }, mssBytes) {
  const flow = summary.flows[0];
  const id = series.flows.indexOf(flow.name ?? 'flow0');
  const t = [];
  const cwnd = [];
  const ended = [];
  series.tcp.flow.forEach((f, k) => {
    if (f !== (id < 0 ? 0 : id)) return;
    t.push(series.tcp.timeNs[k] / 1e9);
    cwnd.push(series.tcp.cwndBytes[k] / mssBytes);
    // ssthresh -1 is infinite; BBR (4.9's keeps it infinite, 6.x's sets it when Startup ends) leaves
    // Startup by its state (1 Startup).
    ended.push(series.tcp.ssthreshBytes[k] !== -1 || series.tcp.bbrState[k] > 1);
  });
  return {
    completionS: flow.completionTimeS ?? null,
    goodputBps: flow.goodputBps,
    retransmissions: flow.retransmissions,
    firstRetransmitS: firstEventS(traceCsv, 'retransmit'),
    ssExitCwnd: slowStartExit(cwnd, ended),
    window: { tS: t, cwnd },
  };
}

// The time of the first row of trace.csv whose event is `event`, in seconds; null without one.
export function firstEventS(csv, event) {
  const header = csv.slice(0, csv.indexOf('\n')).split(',');
  const timeColumn = header.indexOf('time_ns');
  const eventColumn = header.indexOf('event');
  let at = csv.indexOf(`,${event},`);
  // A row's cells hold no commas, so the row holding the first match is the one to read.
  while (at >= 0) {
    const begin = csv.lastIndexOf('\n', at) + 1;
    const end = csv.indexOf('\n', at);
    const cells = csv.slice(begin, end < 0 ? undefined : end).split(',');
    if (cells[eventColumn] === event) return Number(cells[timeColumn]) / 1e9;
    at = csv.indexOf(`,${event},`, at + 1);
  }
  return null;
}

// min / median / max of the values that exist (null entries are runs without the event).
export function spread(values) {
  const present = values.filter((v) => v != null).sort((a, b) => a - b);
  if (present.length === 0) return { min: null, median: null, max: null, missing: values.length };
  const mid = present.length >> 1;
  const median = present.length % 2 ? present[mid] : (present[mid - 1] + present[mid]) / 2;
  return { min: present[0], median, max: present.at(-1), missing: values.length - present.length };
}

// (tcpsim − kernel median) / kernel median in percent; 0 when both are 0; null when only the
// kernel's is 0 or either is missing.
export function offPercent(ours, median) {
  if (ours == null || median == null) return null;
  if (median === 0) return ours === 0 ? 0 : null;
  return ((ours - median) / Math.abs(median)) * 100;
}

// The rows of one case: each metric's kernel spread, tcpsim's value, its offset from the median,
// and the verdict against the metric's target (null where no target applies).
export function caseRows(kernelRuns, ours, transfer) {
  const rows = [];
  for (const m of METRICS) {
    if (m.sized && transfer.bytes == null) continue;
    const kernel = spread(kernelRuns.map((r) => r[m.key]));
    const value = ours ? ours[m.key] : null;
    const off = offPercent(value, kernel.median);
    // Goodput is held to its target on bulk transfers, completion time on sized ones.
    const target = m.key === 'goodputBps' && transfer.bytes != null ? null : TARGETS[m.key] ?? null;
    let within = null;
    if (target != null && ours) {
      if (kernel.median == null && value == null) within = true; // neither has the event
      else within = off != null && Math.abs(off) <= target;
    }
    rows.push({ ...m, kernel, ours: value, off, target, within });
  }
  return rows;
}
