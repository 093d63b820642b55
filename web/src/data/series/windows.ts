// Per connection: the TCP series' rows of each flow as plot columns (s, bytes, b/s), cut where
// the flow ended, and the flows the pacing and BBR plots show.
import type { SimulationResult } from '@tcb-lab/sim';
import { lowerBound, NS, pick, rowsByKey } from '../columns';
import { runAll, type Slices } from '../slices';

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
   * the columns a flavour adds): what no view names can still be plotted.
   */
  columns: Record<string, Float64Array>;
}

/** The TCP series' keys that are not per-connection values. */
const rowKeys = new Set(['timeNs', 'flow', 'endpoint']);

/**
 * A flow's rows of the endpoint that carried its data: both endpoints that send (a request and its
 * response) write rows of their own windows under one flow (the series' `endpoint` column); the one
 * whose peak in flight is larger is the flow's sender. Results stored before the column existed
 * keep all their rows. On equal peaks (neither sent, or both alike) the initiator's rows are kept.
 */
export function senderRows(endpoint: ArrayLike<number> | undefined, inFlight: ArrayLike<number>, rows: Int32Array): Int32Array {
  if (!endpoint) return rows;
  const peak = [0, 0];
  for (const i of rows) peak[endpoint[i]] = Math.max(peak[endpoint[i]], inFlight[i]);
  const side = peak[1] > peak[0] ? 1 : 0;
  return rows.filter((i) => endpoint[i] === side);
}

/**
 * Per flow with any series rows: cwnd, ssthresh, srtt, bytes in flight and pacing rate over time
 * (s, bytes, b/s). Results stored before the pacing column existed read as never paced.
 */
export function flowWindows(result: Pick<SimulationResult, 'series' | 'flows'>): FlowWindow[] {
  return runAll(flowWindowsSlices(result));
}

/** flowWindows in slices (data/slices.ts): it yields after each column it scans and each flow. */
export function* flowWindowsSlices(result: Pick<SimulationResult, 'series' | 'flows'>): Slices<FlowWindow[]> {
  const tcp = result.series?.tcp;
  if (!tcp) return [];
  const rows = rowsByKey(tcp.flow, result.flows.length);
  const out: FlowWindow[] = [];
  const endpoint = (tcp as { endpoint?: ArrayLike<number> }).endpoint;
  const recorded = Object.entries(tcp as unknown as Record<string, ArrayLike<number>>).filter(([key, column]) => !rowKeys.has(key) && ArrayBuffer.isView(column));
  // Columns the run left at 0 in every row (another flavour's state, pacing where nothing paced):
  // each flow's copy of them is one array of zeros, shared, not one per column.
  const zero = new Set<string>();
  for (const [key, column] of recorded) {
    if (allZero(column)) zero.add(key);
    yield;
  }
  for (let flow = 0; flow < rows.length; flow++) {
    const r = senderRows(endpoint, tcp.inFlightBytes, rows[flow]);
    if (r.length === 0) continue;
    const zeros = new Float64Array(r.length);
    const ssthresh = pick(tcp.ssthreshBytes, r);
    for (let i = 0; i < ssthresh.length; i++) if (ssthresh[i] < 0) ssthresh[i] = NaN;
    const srtt = pick(tcp.srttNs, r, NS);
    for (let i = 0; i < srtt.length; i++) if (srtt[i] <= 0) srtt[i] = NaN;
    // The columns plotted as recorded are the same arrays in `columns`.
    const asRecorded: Record<string, Float64Array> = {
      cwndBytes: pick(tcp.cwndBytes, r),
      inFlightBytes: pick(tcp.inFlightBytes, r),
      pacingBps: tcp.pacingBps && !zero.has('pacingBps') ? pick(tcp.pacingBps, r) : zeros,
    };
    out.push({
      flow,
      name: result.flows[flow],
      t: pick(tcp.timeNs, r, NS),
      cwnd: asRecorded.cwndBytes,
      ssthresh,
      srttS: srtt,
      inFlight: asRecorded.inFlightBytes,
      pacingBps: asRecorded.pacingBps,
      columns: Object.fromEntries(recorded.map(([key, column]) => [key, asRecorded[key] ?? (zero.has(key) ? zeros : pick(column, r))])),
    });
    yield;
  }
  return out;
}

function allZero(column: ArrayLike<number>): boolean {
  for (let i = 0; i < column.length; i++) if (column[i] !== 0) return false;
  return true;
}

/**
 * The windows as plotted: each flow's lines end (a NaN row, drawn as a gap) where the flow ended,
 * since a closed connection's last recorded values would otherwise hold to the end of the run (and
 * a closed E-TCP member's share of the ensemble's rate grows as the others leave).
 */
export function closedWindows(windows: FlowWindow[], result: Pick<SimulationResult, 'summary'>): FlowWindow[] {
  return runAll(closedWindowsSlices(windows, result));
}

/** closedWindows in slices (data/slices.ts): it yields after each flow. */
export function* closedWindowsSlices(windows: FlowWindow[], result: Pick<SimulationResult, 'summary'>): Slices<FlowWindow[]> {
  const ends = new Map((result.summary.flows ?? []).map((f) => [f.id, f.endS]));
  const out: FlowWindow[] = [];
  for (const w of windows) {
    out.push(closedWindow(w, ends.get(w.flow)));
    yield;
  }
  return out;
}

function closedWindow(w: FlowWindow, end: number | null | undefined): FlowWindow {
  if (end == null) return w;
  const n = lowerBound(w.t, end);
  // An array shared by several columns (flowWindows' zeros, the columns plotted as recorded) is cut once.
  const done = new Map<Float64Array, Float64Array>();
  const cut = (column: Float64Array, last: number) => {
    let out = done.get(column);
    if (!out) {
      out = new Float64Array(n + 1);
      out.set(column.subarray(0, n));
      out[n] = last;
      done.set(column, out);
    }
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
