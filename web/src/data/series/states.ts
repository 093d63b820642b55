// States as bands under the lines (BBR's mode, Careful Resume's phase), and CUBIC's K as marks on
// its W_max line.
import { NS } from '../columns';
import { tcpColumns, type StateKey } from './columns';
import type { FlowWindow } from './windows';

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

/**
 * The state column's values as named on screen: columns.json's `display.names` (BBR's modes as
 * Linux's tcp_bbr.c and the BBR article name them, Careful Resume's phases as RFC 9959 §4 does),
 * and their band colours.
 */
export function stateInfo(key: StateKey): StateInfo {
  const labels = tcpColumns[key].labels ?? [];
  const names = tcpColumns[key].display?.names ?? labels;
  return { names: labels.map((l, v) => names[v] ?? l), colors: labels.map((_, v) => stateColors[key][v] ?? '#bbbbbb') };
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
