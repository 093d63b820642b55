// Result → plot columns for the window, queue, throughput and RTT plots, the state bands (BBR's
// mode, Careful Resume's phase) and CUBIC's K. Every function is pure and works on the typed
// columns of @tcb-lab/sim's SimulationResult.
import { columnInfo, type SimulationResult } from '@tcb-lab/sim';
import { lowerBound, NS, pick, rowsByKey } from './columns';
import type { TimeSequence } from './timeseq';

export interface FlowWindow {
  flow: number;
  name: string;
  t: Float64Array;
  cwnd: Float64Array;
  /** NaN while ssthresh is infinite. */
  ssthresh: Float64Array;
  srttS: Float64Array;
  inFlight: Float64Array;
  /** The controller's pacing rate (b/s), 0 while it does not pace (E-TCP, TCP/SPAND). */
  pacingBps: Float64Array;
  /**
   * Every column of the TCP series for this flow, by its key, as recorded (e.g. `rttvarNs`, and
   * the columns a flavour adds): what windowColumnList does not name can still be plotted.
   */
  columns: Record<string, Float64Array>;
}

/** The TCP series' keys that are not per-connection values. */
const rowKeys = new Set(['timeNs', 'flow']);

/**
 * Per flow with any series rows: cwnd, ssthresh, srtt, bytes in flight and pacing rate over time
 * (s, bytes, b/s). Results stored before the pacing column existed read as never paced.
 */
export function flowWindows(result: Pick<SimulationResult, 'series' | 'flows'>): FlowWindow[] {
  const tcp = result.series?.tcp;
  if (!tcp) return [];
  const rows = rowsByKey(tcp.flow, result.flows.length);
  const out: FlowWindow[] = [];
  rows.forEach((r, flow) => {
    if (r.length === 0) return;
    const ssthresh = pick(tcp.ssthreshBytes, r);
    for (let i = 0; i < ssthresh.length; i++) if (ssthresh[i] < 0) ssthresh[i] = NaN;
    const srtt = pick(tcp.srttNs, r, NS);
    for (let i = 0; i < srtt.length; i++) if (srtt[i] <= 0) srtt[i] = NaN;
    out.push({
      flow,
      name: result.flows[flow],
      t: pick(tcp.timeNs, r, NS),
      cwnd: pick(tcp.cwndBytes, r),
      ssthresh,
      srttS: srtt,
      inFlight: pick(tcp.inFlightBytes, r),
      pacingBps: tcp.pacingBps ? pick(tcp.pacingBps, r) : new Float64Array(r.length),
      columns: Object.fromEntries(
        Object.entries(tcp as unknown as Record<string, ArrayLike<number>>)
          .filter(([key, column]) => !rowKeys.has(key) && ArrayBuffer.isView(column))
          .map(([key, column]) => [key, pick(column, r)]),
      ),
    });
  });
  return out;
}

/**
 * The windows as plotted: each flow's lines end (a NaN row, drawn as a gap) where the flow ended,
 * since a closed connection's last recorded values would otherwise hold to the end of the run (and
 * a closed E-TCP member's share of the ensemble's rate grows as the others leave).
 */
export function closedWindows(windows: FlowWindow[], result: Pick<SimulationResult, 'summary'>): FlowWindow[] {
  const ends = new Map((result.summary.flows ?? []).map((f) => [f.id, f.endS]));
  return windows.map((w) => {
    const end = ends.get(w.flow);
    if (end == null) return w;
    const n = lowerBound(w.t, end);
    const cut = (column: Float64Array, last: number) => {
      const out = new Float64Array(n + 1);
      out.set(column.subarray(0, n));
      out[n] = last;
      return out;
    };
    return {
      ...w,
      t: cut(w.t, end),
      cwnd: cut(w.cwnd, NaN),
      ssthresh: cut(w.ssthresh, NaN),
      srttS: cut(w.srttS, NaN),
      inFlight: cut(w.inFlight, NaN),
      pacingBps: cut(w.pacingBps, NaN),
      columns: Object.fromEntries(Object.entries(w.columns).map(([key, column]) => [key, cut(column, NaN)])),
    };
  });
}

/** Whether the row is the end marker closedWindows adds (cwnd is never NaN otherwise). */
export const isClosedRow = (w: FlowWindow, i: number) => Number.isNaN(w.cwnd[i]);

/** The flows that were paced while open, for the pacing plot (windows from closedWindows). */
export function pacedWindows(windows: FlowWindow[]): FlowWindow[] {
  return windows.filter((w) => w.pacingBps.some((v) => v > 0));
}

/**
 * The flows BBR drove (tcp/bbr.h), for the BBR model plots: those with a bandwidth estimate
 * (windows from closedWindows). Results stored before BBR's columns existed have none.
 */
export function bbrWindows(windows: FlowWindow[]): FlowWindow[] {
  return windows.filter((w) => w.columns.btlBwBps?.some((v) => v > 0));
}

/** Schemes whose group has one window that its members draw from (their share is what they have in flight). */
export const oneWindowSchemes = new Set(['etcp', 'tcp-int', 'congestion-manager']);

export interface GroupWindow {
  group: number;
  name: string;
  scheme: string;
  /** The group's aggregate (or shared) window and ssthresh over time. */
  t: Float64Array;
  cwnd: Float64Array;
  ssthresh: Float64Array;
  members: Int32Array;
  /** Members' shares stacked in member order: at times `stackT`, layer m spans [y0[m], y1[m]]. */
  memberFlows: number[];
  share: 'in flight' | 'cwnd';
  stackT: Float64Array;
  y0: Float64Array[];
  y1: Float64Array[];
}

/**
 * Per sharing group: the aggregate window from the group series and each member's share, stacked.
 * For one-window schemes a member's share is its bytes in flight; for schemes in which members keep
 * their own windows (TCBI, RFC 9040, SPAND) it is the member's cwnd while it is open.
 */
export function groupWindows(result: Pick<SimulationResult, 'series' | 'flows' | 'groups' | 'summary'>): GroupWindow[] {
  const g = result.series?.group;
  if (!g) return [];
  const rows = rowsByKey(g.group, result.groups.length);
  const flows = flowWindows(result);
  const byFlow = new Map(flows.map((f) => [f.flow, f]));
  const out: GroupWindow[] = [];
  rows.forEach((r, group) => {
    if (r.length === 0) return;
    const info = result.summary.groups?.[group];
    const scheme = info?.scheme ?? '';
    const share = oneWindowSchemes.has(scheme) ? 'in flight' : 'cwnd';
    const memberFlows = (info?.flows ?? []).filter((f) => byFlow.has(f));
    const ssthresh = pick(g.ssthreshBytes, r);
    for (let i = 0; i < ssthresh.length; i++) if (ssthresh[i] < 0) ssthresh[i] = NaN;
    const members = memberFlows.map((f) => byFlow.get(f)!);
    const stack = stackSteps(
      members.map((m) => m.t),
      members.map((m) => (share === 'cwnd' ? openWindow(m, result) : m.inFlight)),
    );
    out.push({
      group,
      name: result.groups[group],
      scheme,
      t: pick(g.timeNs, r, NS),
      cwnd: pick(g.cwndBytes, r),
      ssthresh,
      members: Int32Array.from(r, (i) => g.members[i]),
      memberFlows,
      share,
      stackT: stack.t,
      y0: stack.y0,
      y1: stack.y1,
    });
  });
  return out;
}

// A member's cwnd, zero after its flow ended (a closed connection holds no share).
function openWindow(m: FlowWindow, result: Pick<SimulationResult, 'summary'>): Float64Array {
  const end = result.summary.flows?.find((f) => f.id === m.flow)?.endS;
  if (end == null) return m.cwnd;
  const y = Float64Array.from(m.cwnd);
  // The last row at or after the end keeps the flow's final window; the stack drops it from there.
  for (let i = 0; i < y.length; i++) if (m.t[i] >= end) y[i] = 0;
  return y;
}

/**
 * Stacks step series (each value holds until that series' next point, zero before its first) on
 * the union of their times. Returns the union times and per layer the lower and upper edges.
 */
export function stackSteps(ts: Float64Array[], ys: Float64Array[]): { t: Float64Array; y0: Float64Array[]; y1: Float64Array[] } {
  const all = new Float64Array(ts.reduce((n, t) => n + t.length, 0));
  let k = 0;
  for (const t of ts) {
    all.set(t, k);
    k += t.length;
  }
  all.sort();
  let u = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[u - 1]) all[u++] = all[i];
  const t = all.slice(0, u);
  const y0: Float64Array[] = [];
  const y1: Float64Array[] = [];
  const base = new Float64Array(u);
  ts.forEach((series, m) => {
    const lower = Float64Array.from(base);
    const upper = new Float64Array(u);
    let j = -1;
    for (let i = 0; i < u; i++) {
      while (j + 1 < series.length && series[j + 1] <= t[i]) j++;
      const v = j >= 0 ? ys[m][j] : 0;
      upper[i] = lower[i] + v;
      base[i] = upper[i];
    }
    y0.push(lower);
    y1.push(upper);
  });
  return { t, y0, y1 };
}

export interface QueueLine {
  link: number;
  name: string;
  t: Float64Array;
  packets: Float64Array;
  /** Times of the packets this link direction dropped (queue full) or lost, from the trace. */
  dropT: Float64Array;
}

/** Queue occupancy per link direction that ever queued or dropped, in packets. */
export function queueLines(result: Pick<SimulationResult, 'series' | 'links' | 'trace'>): QueueLine[] {
  const q = result.series?.queue;
  if (!q) return [];
  const rows = rowsByKey(q.link, result.links.length);
  const dropTimes: number[][] = result.links.map(() => []);
  const tr = result.trace;
  if (tr) {
    const drop = tr.eventNames.indexOf('drop');
    const loss = tr.eventNames.indexOf('loss');
    for (let i = 0; i < tr.event.length; i++) {
      const e = tr.event[i];
      if ((e === drop || e === loss) && tr.link[i] >= 0 && tr.link[i] < dropTimes.length) dropTimes[tr.link[i]].push(tr.timeNs[i] / NS);
    }
  }
  const out: QueueLine[] = [];
  rows.forEach((r, link) => {
    const packets = pick(q.packets, r);
    if (!packets.some((p) => p > 0) && dropTimes[link].length === 0) return;
    out.push({ link, name: result.links[link], t: pick(q.timeNs, r, NS), packets, dropT: Float64Array.from(dropTimes[link]) });
  });
  return out;
}

export interface RateLine {
  conn: number;
  name: string;
  /** Bin centres (s). */
  t: Float64Array;
  throughputBps: Float64Array;
  goodputBps: Float64Array;
}

/**
 * Throughput (every data byte sent, retransmissions included) and goodput (bytes newly
 * acknowledged) per connection, in bits per second over bins of `binS` seconds.
 */
export function rates(ts: TimeSequence, binS: number): RateLine[] {
  const bins = Math.max(1, Math.ceil(ts.tMax / binS));
  return ts.connections.map((c, k) => {
    const sent = new Float64Array(bins);
    const good = new Float64Array(bins);
    for (let i = 0; i < ts.segments.t.length; i++) {
      if (ts.segments.conn[i] !== k) continue;
      sent[Math.min(bins - 1, Math.floor(ts.segments.t[i] / binS))] += ts.segments.hi[i] - ts.segments.lo[i];
    }
    const a = ts.acks[k];
    let acked = a.y.length > 0 ? a.y[0] : 0;
    for (let i = 0; i < a.t.length; i++) {
      if (a.y[i] > acked) {
        good[Math.min(bins - 1, Math.floor(a.t[i] / binS))] += a.y[i] - acked;
        acked = a.y[i];
      }
    }
    const t = new Float64Array(bins);
    for (let b = 0; b < bins; b++) {
      t[b] = (b + 0.5) * binS;
      sent[b] = (sent[b] * 8) / binS;
      good[b] = (good[b] * 8) / binS;
    }
    return { conn: k, name: c.name, t, throughputBps: sent, goodputBps: good };
  });
}

/** A bin width giving about `target` bins over the run (1-2-5 steps). */
export function niceBin(tMax: number, target = 100): number {
  const raw = Math.max(tMax, 1e-6) / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export interface RttSamples {
  conn: number;
  name: string;
  t: Float64Array;
  rttS: Float64Array;
}

/**
 * RTT samples per connection as tcptrace takes them: an ACK that acknowledges exactly the end of a
 * segment sent once gives ACK time − send time; segments sent again give none (Karn).
 */
export function rttSamples(ts: TimeSequence): RttSamples[] {
  return ts.connections.map((c, k) => {
    const sentAt = new Map<number, number>(); // segment end → send time; NaN once retransmitted
    for (let i = 0; i < ts.segments.t.length; i++) {
      if (ts.segments.conn[i] !== k) continue;
      const end = ts.segments.hi[i];
      if (ts.segments.retx[i] || sentAt.has(end)) sentAt.set(end, NaN);
      else sentAt.set(end, ts.segments.t[i]);
    }
    const t: number[] = [];
    const rtt: number[] = [];
    const a = ts.acks[k];
    let last = -1;
    for (let i = 0; i < a.t.length; i++) {
      const ack = a.y[i];
      if (ack === last) continue;
      last = ack;
      const sent = sentAt.get(ack);
      if (sent !== undefined && !Number.isNaN(sent)) {
        t.push(a.t[i]);
        rtt.push(a.t[i] - sent);
        sentAt.delete(ack);
      }
    }
    return { conn: k, name: c.name, t: Float64Array.from(t), rttS: Float64Array.from(rtt) };
  });
}

/**
 * A per-connection column that the series plots can draw beside cwnd. A new column of the TCP
 * series (e.g. a flavour's own state) is one entry here and, if it deserves its own plot, one view
 * in windowViews.
 */
export interface WindowColumn {
  key: string;
  label: string;
  /** The CSV header. */
  csvName: string;
  values: (w: FlowWindow) => Float64Array;
  format: (v: number) => string;
  csv: (v: number) => number | string;
  dashed?: boolean;
  /** Drawn dotted (a reference level such as CUBIC's W_max); dashed wins when both are set. */
  dotted?: boolean;
}

const si = (unit: string) => (v: number) => {
  if (Number.isNaN(v)) return '–';
  const a = Math.abs(v);
  const [d, p] = a >= 1e9 ? [1e9, 'G'] : a >= 1e6 ? [1e6, 'M'] : a >= 1e4 ? [1e3, 'k'] : [1, ''];
  return `${Number((v / d).toPrecision(4))} ${p}${unit}`;
};

export const windowColumnList: WindowColumn[] = [
  { key: 'cwnd', label: 'cwnd', csvName: 'cwnd_bytes', values: (w) => w.cwnd, format: si('B'), csv: (v) => v },
  {
    key: 'ssthresh',
    label: 'ssthresh',
    csvName: 'ssthresh_bytes',
    values: (w) => w.ssthresh,
    format: (v) => (Number.isNaN(v) ? '∞' : si('B')(v)),
    csv: (v) => (Number.isNaN(v) ? 'infinite' : v),
    dashed: true,
  },
  { key: 'inFlight', label: 'in flight', csvName: 'in_flight_bytes', values: (w) => w.inFlight, format: si('B'), csv: (v) => v },
  { key: 'srtt', label: 'srtt', csvName: 'srtt_s', values: (w) => w.srttS, format: (v) => (Number.isNaN(v) ? '–' : `${Number(v.toPrecision(4))} s`), csv: (v) => v },
  {
    key: 'pacing',
    label: 'pacing rate',
    csvName: 'pacing_bps',
    values: (w) => w.pacingBps,
    format: (v) => (v > 0 ? si('b/s')(v) : 'not paced'),
    csv: (v) => v,
  },
  {
    key: 'btlBw',
    label: 'BBR bandwidth',
    csvName: 'btl_bw_bps',
    values: (w) => w.columns.btlBwBps ?? new Float64Array(w.t.length).fill(NaN),
    format: (v) => (v > 0 ? si('b/s')(v) : '–'),
    csv: (v) => v,
    dashed: true,
  },
  {
    key: 'wMax',
    label: 'W_max',
    csvName: 'w_max_bytes',
    // 0 for flavors other than CUBIC and before CUBIC's first congestion event: no value.
    values: (w) => (w.columns.wMaxBytes ?? new Float64Array(w.t.length)).map((v) => (v > 0 ? v : NaN)),
    format: (v) => (Number.isNaN(v) ? '–' : si('B')(v)),
    csv: (v) => (Number.isNaN(v) ? '' : v),
    dotted: true,
  },
  {
    key: 'pacingGain',
    label: 'pacing gain',
    csvName: 'bbr_pacing_gain',
    // Thousandths in the series; 0 for flavors other than BBR.
    values: (w) => (w.columns.bbrPacingGainMilli ?? new Float64Array(w.t.length)).map((v) => (v > 0 ? v / 1000 : NaN)),
    format: (v) => (Number.isNaN(v) ? '–' : `${Number(v.toPrecision(3))}×`),
    csv: (v) => (Number.isNaN(v) ? '' : v),
  },
  {
    key: 'bbrMinRtt',
    label: 'BBR min RTT',
    csvName: 'bbr_min_rtt_s',
    // 0 before BBR's first RTT sample: no value yet.
    values: (w) => (w.columns.bbrMinRttNs ?? new Float64Array(w.t.length)).map((v) => (v > 0 ? v / 1e9 : NaN)),
    format: (v) => (Number.isNaN(v) ? '–' : `${Number(v.toPrecision(4))} s`),
    csv: (v) => v,
    dashed: true,
  },
];

/**
 * The TCP series' keys that have a plot (windowColumnList's columns, the state bands and CUBIC's
 * K marks); the others are offered as they are.
 */
const listedKeys = new Set([
  'cwndBytes',
  'ssthreshBytes',
  'srttNs',
  'inFlightBytes',
  'pacingBps',
  'btlBwBps',
  'bbrMinRttNs',
  'wMaxBytes',
  'cubicKNs',
  'cubicEpochNs',
  'bbrPacingGainMilli',
  'bbrState',
  'crPhase',
]);

/** A series column windowColumnList does not name, plotted as recorded under its key. */
export function seriesColumn(key: string): WindowColumn {
  const format = (v: number) => (Number.isNaN(v) ? '–' : String(Number(v.toPrecision(4))));
  return { key: `series:${key}`, label: key, csvName: key, values: (w) => w.columns[key] ?? new Float64Array(w.t.length).fill(NaN), format, csv: (v) => v };
}

/** The series columns of these windows that windowColumnList does not plot (e.g. a flavour's own state). */
export function otherSeriesColumns(windows: FlowWindow[]): string[] {
  const keys = new Set<string>();
  for (const w of windows) {
    for (const [key, values] of Object.entries(w.columns)) {
      // A column that is 0 in every row is one this run's flavor or scheme does not fill (CUBIC's
      // W_max on a NewReno run, the Careful Resume phase without Careful Resume): no plot.
      if (!listedKeys.has(key) && values.some((v: number) => v !== 0 && !Number.isNaN(v))) keys.add(key);
    }
  }
  return [...keys].sort();
}

export function windowColumn(key: string): WindowColumn {
  if (key.startsWith('series:')) return seriesColumn(key.slice('series:'.length));
  const c = windowColumnList.find((x) => x.key === key);
  if (!c) throw new RangeError(`no window column "${key}"`);
  return c;
}

/** A plot of per-connection columns sharing one y axis. */
export interface WindowView {
  key: string;
  title: string;
  yLabel: string;
  columns: string[];
  /** The CSV's columns (default: columns). */
  csvColumns?: string[];
  /** What to look for, in one line. */
  caption: string;
  /** A state column drawn as a band per connection under the lines (stateRuns). */
  band?: StateKey;
  /** CUBIC's K marked on its W_max line (cubicKMarks). */
  cubicK?: boolean;
  /** Axis numbers, e.g. "1.25×" for a gain. */
  unit?: string;
}

export const windowViews: WindowView[] = [
  {
    key: 'cwnd',
    title: 'Congestion window and ssthresh per connection',
    yLabel: 'window (B)',
    columns: ['cwnd', 'ssthresh', 'wMax'],
    csvColumns: ['cwnd', 'ssthresh', 'inFlight', 'wMax'],
    caption: 'Look for: how large a window each connection starts with (sharing schemes hand one over), slow start’s doubling, and halvings at losses.',
    band: 'crPhase',
    cubicK: true,
  },
  {
    key: 'inflight',
    title: 'Bytes in flight per connection',
    yLabel: 'in flight (B)',
    columns: ['inFlight'],
    caption: 'Look for: connections that keep the pipe full against those that idle, waiting for the application or a timeout.',
  },
  {
    key: 'srtt',
    title: 'Smoothed RTT per connection',
    yLabel: 'srtt (s)',
    columns: ['srtt'],
    caption: 'Look for: srtt rising with the queue, and new connections that start from a shared estimate instead of the 1 s default.',
  },
  {
    key: 'pacing',
    title: 'Pacing rate per connection (0: ACK-clocked)',
    yLabel: 'pacing rate (b/s)',
    columns: ['pacing'],
    caption: 'Look for: when a scheme paces a connection (E-TCP’s cached ensembles, TCP/SPAND’s start) and when the ACK clock takes over.',
  },
  {
    key: 'bbr-state',
    title: 'BBR’s state (band) and pacing gain per connection',
    yLabel: 'pacing gain',
    columns: ['pacingGain'],
    caption: 'Look for: Startup at 2.89× until the bandwidth stops growing, Drain at 0.35×, ProbeBW cycling 1.25×, 0.75× and six rounds of 1×, and ProbeRTT every 10 s without a lower RTT.',
    band: 'bbrState',
    unit: '×',
  },
  {
    key: 'bbr-bw',
    title: 'BBR’s bandwidth estimate (dashed) and pacing rate per connection',
    yLabel: 'rate (b/s)',
    columns: ['btlBw', 'pacing'],
    caption: 'Look for: Startup pacing at 2.89× the estimate until it stops growing, Drain below it, and ProbeBW’s gain cycle (1.25×, 0.75×, then 1×) around the bottleneck rate.',
  },
  {
    key: 'bbr-rtt',
    title: 'BBR’s min RTT (dashed) and srtt per connection',
    yLabel: 'RTT (s)',
    columns: ['bbrMinRtt', 'srtt'],
    caption: 'Look for: the min RTT as the propagation delay, srtt above it by the queue, and srtt falling to it in ProbeRTT every 10 s.',
  },
];

// ---------------------------------------------------------------------------------------------
// States as bands, CUBIC's K

/** The TCP series' state columns (a `labels` list in sim-core/trace/columns.json). */
export type StateKey = 'bbrState' | 'crPhase';

/**
 * How the states are named on screen, by the label columns.json gives each value (the value's
 * meaning comes from that table alone): BBR's modes as Linux's tcp_bbr.c and the BBR article name
 * them, Careful Resume's phases as RFC 9959 §4 does.
 */
const stateNames: Record<string, string> = {
  startup: 'Startup',
  drain: 'Drain',
  'probe-bw': 'ProbeBW',
  'probe-rtt': 'ProbeRTT',
  reconnaissance: 'Reconnaissance',
  unvalidated: 'Unvalidated',
  validating: 'Validating',
  'safe-retreat': 'Safe Retreat',
  normal: 'Normal',
  none: 'none',
};

/** Band colours per state value (value 0, "none" or "normal", is left blank): Paul Tol's light set. */
const stateColors: Record<StateKey, string[]> = {
  // Startup, Drain, ProbeBW, ProbeRTT.
  bbrState: ['', '#EE8866', '#77AADD', '#44BB99', '#AA4499'],
  // Reconnaissance, Unvalidated, Validating, Safe Retreat.
  crPhase: ['', '#EEDD88', '#EE8866', '#77AADD', '#FFAABB'],
};

export interface StateInfo {
  /** Display name per value. */
  names: string[];
  /** Band colour per value ('' for the value that means "not in any state": none is drawn). */
  colors: string[];
}

export function stateInfo(key: StateKey): StateInfo {
  const labels = columnInfo.tcp[key].labels as readonly string[];
  return { names: labels.map((l) => stateNames[l] ?? l), colors: labels.map((_, v) => stateColors[key][v] ?? '#bbbbbb') };
}

/** One connection's state over time as runs: [start[i], end[i]) in state[i]; runs of value 0 left out. */
export interface StateRuns {
  flow: number;
  start: Float64Array;
  end: Float64Array;
  state: Uint8Array;
}

/**
 * Per connection with any non-zero value of the state column: its runs. A run ends where the state
 * changes, where the flow ended (the NaN row of closedWindows), or at `tEnd` (the end of the run).
 */
export function stateRuns(windows: FlowWindow[], key: StateKey, tEnd: number): StateRuns[] {
  const out: StateRuns[] = [];
  for (const w of windows) {
    const v = w.columns[key];
    if (!v || !v.some((x) => x > 0)) continue;
    const start: number[] = [];
    const end: number[] = [];
    const state: number[] = [];
    let open = -1; // index of the row that began the current run
    const close = (at: number) => {
      if (open >= 0 && v[open] > 0 && at > w.t[open]) {
        start.push(w.t[open]);
        end.push(at);
        state.push(v[open]);
      }
      open = -1;
    };
    for (let i = 0; i < v.length; i++) {
      if (Number.isNaN(v[i])) {
        close(w.t[i]);
        continue;
      }
      if (open >= 0 && v[i] === v[open]) continue;
      close(w.t[i]);
      open = i;
    }
    close(Math.max(tEnd, w.t.length ? w.t[w.t.length - 1] : 0));
    if (start.length) out.push({ flow: w.flow, start: Float64Array.from(start), end: Float64Array.from(end), state: Uint8Array.from(state) });
  }
  return out;
}

/** Where a CUBIC connection's curve reaches W_max: t_epoch + K (s) at W_max (bytes), per stage. */
export interface KMarks {
  flow: number;
  t: Float64Array;
  wMax: Float64Array;
  /** K of each mark (s), for the hover. */
  k: Float64Array;
}

/**
 * RFC 9438 §4.2: in the congestion avoidance stage that began at t_epoch, W_cubic(t) reaches W_max
 * at t = K. Per CUBIC connection and stage (rows with one cubicEpochNs), a mark at t_epoch + K if
 * the stage lasted that long (a loss before K ends the stage below W_max: no mark). A stage with
 * K = 0 (after a timeout, or one that started above W_max) is marked at its start.
 */
export function cubicKMarks(windows: FlowWindow[], tEnd: number): KMarks[] {
  const out: KMarks[] = [];
  for (const w of windows) {
    const epoch = w.columns.cubicEpochNs;
    const k = w.columns.cubicKNs;
    const wMax = w.columns.wMaxBytes;
    if (!epoch || !k || !wMax || !epoch.some((v) => v > 0)) continue;
    const t: number[] = [];
    const y: number[] = [];
    const ks: number[] = [];
    let i = 0;
    while (i < epoch.length) {
      const e = epoch[i];
      let j = i + 1;
      while (j < epoch.length && epoch[j] === e) j++;
      if (e > 0 && wMax[i] > 0) {
        const stageEnd = j < epoch.length ? w.t[j] : Math.max(tEnd, w.t[w.t.length - 1]);
        const at = (e + k[i]) / NS;
        if (at <= stageEnd) {
          t.push(at);
          y.push(wMax[i]);
          ks.push(k[i] / NS);
        }
      }
      i = j;
    }
    if (t.length) out.push({ flow: w.flow, t: Float64Array.from(t), wMax: Float64Array.from(y), k: Float64Array.from(ks) });
  }
  return out;
}
