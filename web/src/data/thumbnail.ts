// A preset's thumbnail for the gallery: every connection's congestion window over the run, each
// decimated to at most four points per pixel column (first, lowest, highest, last), as SVG path
// strings in a width × height box (y grows downwards, 0 at the largest window).
import { decimateStep } from './decimate';
import type { FlowWindow } from './series';

export interface ThumbnailLine {
  flow: number;
  d: string;
}

export function cwndThumbnail(windows: FlowWindow[], width: number, height: number): ThumbnailLine[] {
  let tMax = 0;
  let yMax = 0;
  for (const w of windows) {
    if (w.t.length) tMax = Math.max(tMax, w.t[w.t.length - 1]);
    for (const v of w.cwnd) if (v > yMax) yMax = v;
  }
  if (!(tMax > 0) || !(yMax > 0)) return [];
  const kx = width / tMax;
  const ky = (height - 1) / yMax;
  const y = (v: number) => Math.round((height - 0.5 - v * ky) * 10) / 10;
  const out: ThumbnailLine[] = [];
  for (const w of windows) {
    const cols = decimateStep(w.t, w.cwnd, 0, tMax, { k: kx, b: 0 });
    let d = '';
    let prev = NaN;
    for (let i = 0; i < cols.count; i++) {
      if (Number.isNaN(cols.first[i])) {
        prev = NaN;
        continue;
      }
      const x = cols.x[i];
      // A step line: across at the previous value, then down/up through the column's extremes. A
      // column that holds a connection's close (its NaN row) has no value past it: the line ends.
      d += Number.isNaN(prev) ? `M${x},${y(cols.first[i])}` : `H${x}V${y(cols.first[i])}`;
      for (const v of [cols.min[i], cols.max[i]]) if (!Number.isNaN(v)) d += `V${y(v)}`;
      if (!Number.isNaN(cols.last[i])) d += `V${y(cols.last[i])}`;
      prev = cols.last[i];
    }
    if (d) out.push({ flow: w.flow, d });
  }
  return out;
}
