// The stored calibration against the Linux kernel (written by `npm run calibrate:linux -- --store`
// into linux-calibration.json beside this file): per case the kernel's runs as min / median / max
// beside tcpsim's `linux` profile, the verdicts against the targets, and every run's congestion
// window, thinned for drawing. Pure functions over it, for the "tcpsim against Linux" page.

export interface Spread {
  min: number | null;
  median: number | null;
  max: number | null;
  missing: number;
}

export interface CalibrationRow {
  key: string;
  name: string;
  unit: string;
  kernel: Spread;
  ours: number | null;
  off: number | null;
  target: number | null;
  within: boolean | null;
}

export interface Window {
  tS: number[];
  cwnd: number[];
}

export interface CalibrationCase {
  id: string;
  path: string;
  algorithm: string;
  transfer: string;
  title: string;
  rows: CalibrationRow[];
  kernel: { minRttMs: number; delayLineLateUs: { p50: number; p99: number; max: number }; load: number; window: Window }[];
  tcpsim: { window: Window } | { error: string };
}

export interface Calibration {
  kernel: string;
  measuredOn: string;
  targets: Record<string, number>;
  cases: CalibrationCase[];
}

/** The vertices of a step line that holds each value until the next change, and the last to `endS`. */
export function stepPoints(w: Window, endS: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < w.tS.length; ++i) {
    if (i > 0) out.push([w.tS[i], w.cwnd[i - 1]]);
    out.push([w.tS[i], w.cwnd[i]]);
  }
  if (w.tS.length > 0 && endS > w.tS[w.tS.length - 1]) out.push([endS, w.cwnd[w.cwnd.length - 1]]);
  return out;
}

/** The metrics a case misses its targets on; empty when it meets every one. */
export function outsideTargets(c: CalibrationCase): string[] {
  return c.rows.filter((r) => r.within === false).map((r) => r.name);
}

/** A value in the row's unit: seconds to the millisecond, Mb/s to three decimals, counts as they are. */
export function formatMetric(value: number | null, unit: string): string {
  if (value === null) return '—';
  if (unit === 's') return value.toFixed(3);
  if (unit === 'Mb/s') return (value / 1e6).toFixed(3);
  if (unit === 'segments') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  return String(value);
}

/** tcpsim against the kernel's median, signed, in percent. */
export function formatOff(off: number | null): string {
  if (off === null) return '—';
  if (off === 0) return '0 %';
  const size = Math.abs(off);
  return `${off > 0 ? '+' : '−'}${size.toFixed(size < 1 ? 2 : 1)} %`;
}

/** The x range of a case's overlay: the longest of its runs. */
export function overlayEnd(c: CalibrationCase): number {
  const ends = [...c.kernel.map((k) => k.window.tS.at(-1) ?? 0), 'window' in c.tcpsim ? (c.tcpsim.window.tS.at(-1) ?? 0) : 0];
  return Math.max(1e-3, ...ends);
}
