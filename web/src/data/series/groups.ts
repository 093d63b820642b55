// Per sharing group: the group's window over time and each member's share of it, stacked.
import type { SimulationResult } from '@tcb-lab/sim';
import { NS, pick, rowsByKey } from '../columns';
import { oneWindowSchemes } from '../../schema';
import { flowWindows, type FlowWindow } from './windows';

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
 * their own windows (TCBI, RFC 9040, SPAND) it is the member's cwnd while it is open. `windows`:
 * the run's flowWindows, when the caller has them already.
 */
export function groupWindows(result: Pick<SimulationResult, 'series' | 'flows' | 'groups' | 'summary'>, windows?: FlowWindow[]): GroupWindow[] {
  const g = result.series?.group;
  if (!g) return [];
  const rows = rowsByKey(g.group, result.groups.length);
  if (rows.every((r) => r.length === 0)) return [];
  // The members' windows: flowWindows' (not closed), computed here unless the caller has them.
  const flows = windows ?? flowWindows(result);
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
