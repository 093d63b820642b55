// Decimation for drawing: what falls into one pixel column is drawn once. A time–sequence graph
// of a million segments becomes at most a few thousand ticks per frame, whatever the zoom.
import { lowerBound, upperBound } from './columns';

export interface TickColumns {
  count: number;
  x: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
  conn: Int32Array;
  retx: Uint8Array;
}

/**
 * Merges the segments of each connection that land in the same pixel column (and have the same
 * retransmission flag) into one tick spanning their lowest and highest byte. `px` maps time to a
 * pixel; only segments with t in [t0, t1] are looked at (t sorted ascending). `out` is reused
 * between frames when it is large enough.
 */
export function decimateTicks(
  seg: { t: Float64Array; lo: Float64Array; hi: Float64Array; conn: Int32Array; retx: Uint8Array },
  connections: number,
  t0: number,
  t1: number,
  px: (t: number) => number,
  out?: TickColumns,
): TickColumns {
  const i0 = lowerBound(seg.t, t0);
  const i1 = upperBound(seg.t, t1);
  const cap = i1 - i0;
  const o =
    out && out.x.length >= cap
      ? out
      : {
          count: 0,
          x: new Float64Array(cap),
          lo: new Float64Array(cap),
          hi: new Float64Array(cap),
          conn: new Int32Array(cap),
          retx: new Uint8Array(cap),
        };
  o.count = 0;
  // Open tick per (connection, retx): its output slot and pixel column.
  const slot = new Int32Array(connections * 2).fill(-1);
  const column = new Float64Array(connections * 2).fill(NaN);
  for (let i = i0; i < i1; i++) {
    const c = seg.conn[i];
    const r = seg.retx[i];
    const key = c * 2 + r;
    const x = Math.round(px(seg.t[i]));
    let k = slot[key];
    if (k >= 0 && column[key] === x) {
      if (seg.lo[i] < o.lo[k]) o.lo[k] = seg.lo[i];
      if (seg.hi[i] > o.hi[k]) o.hi[k] = seg.hi[i];
      continue;
    }
    k = o.count++;
    slot[key] = k;
    column[key] = x;
    o.x[k] = x;
    o.lo[k] = seg.lo[i];
    o.hi[k] = seg.hi[i];
    o.conn[k] = c;
    o.retx[k] = r;
  }
  return o;
}

export interface LineColumns {
  count: number;
  /** Pixel column. */
  x: Float64Array;
  first: Float64Array;
  min: Float64Array;
  max: Float64Array;
  last: Float64Array;
}

/**
 * M4 decimation of a step line (value holds until the next point): per pixel column the first,
 * lowest, highest and last value, which draw exactly what the full line would. The point before
 * t0 is included so that the line enters the view at the right height.
 */
export function decimateStep(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  t0: number,
  t1: number,
  px: (t: number) => number,
): LineColumns {
  const i0 = Math.max(0, lowerBound(t, t0) - 1);
  const i1 = Math.min(t.length, upperBound(t, t1) + 1);
  const cap = Math.max(0, i1 - i0);
  const o: LineColumns = {
    count: 0,
    x: new Float64Array(cap),
    first: new Float64Array(cap),
    min: new Float64Array(cap),
    max: new Float64Array(cap),
    last: new Float64Array(cap),
  };
  let k = -1;
  for (let i = i0; i < i1; i++) {
    const x = Math.round(px(t[i]));
    const v = y[i];
    if (k >= 0 && o.x[k] === x) {
      if (v < o.min[k]) o.min[k] = v;
      if (v > o.max[k]) o.max[k] = v;
      o.last[k] = v;
      continue;
    }
    k = o.count++;
    o.x[k] = x;
    o.first[k] = o.min[k] = o.max[k] = o.last[k] = v;
  }
  return o;
}

/** Points of a scatter (t, y) in [t0, t1], at most one per pixel cell and series. */
export function decimatePoints(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  t0: number,
  t1: number,
  px: (t: number) => number,
  py: (y: number) => number,
): { x: Float64Array; y: Float64Array; count: number } {
  const i0 = lowerBound(t, t0);
  const i1 = upperBound(t, t1);
  const seen = new Set<number>();
  const xs = new Float64Array(Math.max(0, i1 - i0));
  const ys = new Float64Array(Math.max(0, i1 - i0));
  let count = 0;
  for (let i = i0; i < i1; i++) {
    const x = Math.round(px(t[i]));
    const yy = Math.round(py(y[i]));
    const cell = x * 65536 + yy;
    if (seen.has(cell)) continue;
    seen.add(cell);
    xs[count] = x;
    ys[count] = yy;
    count++;
  }
  return { x: xs, y: ys, count };
}
