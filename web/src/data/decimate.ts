// Decimation for drawing: what falls into one pixel column is drawn once. A time–sequence graph
// of a million segments becomes at most a few thousand ticks per frame, whatever the zoom.
import { lowerBound, upperBound } from './columns';

/** A linear map v → v * k + b (a d3 linear scale's, see affineOf), applied inline in hot loops. */
export interface Affine {
  k: number;
  b: number;
}

/** The affine form of a linear scale (d3's scaleLinear: domain() and range() of two values). */
export function affineOf(scale: { domain(): number[]; range(): number[] }): Affine {
  const [d0, d1] = scale.domain();
  const [r0, r1] = scale.range();
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return { k, b: r0 - d0 * k };
}

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
  px: Affine,
  out?: TickColumns,
): TickColumns {
  const { k: xk, b: xb } = px;
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
    const x = Math.round(seg.t[i] * xk + xb);
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
  px: Affine,
): LineColumns {
  return decimateStepLevel({ t, first: y, min: y, max: y, last: y }, t0, t1, px);
}

/**
 * decimateStep over a level of detail (lod.ts): per row the first, lowest, highest and last value.
 * `out` is filled instead of new columns when it is large enough.
 */
export function decimateStepLevel(
  level: { t: ArrayLike<number>; first: ArrayLike<number>; min: ArrayLike<number>; max: ArrayLike<number>; last: ArrayLike<number> },
  t0: number,
  t1: number,
  px: Affine,
  out?: LineColumns,
): LineColumns {
  const { t } = level;
  const { k: xk, b: xb } = px;
  const i0 = Math.max(0, lowerBound(t, t0) - 1);
  const i1 = Math.min(t.length, upperBound(t, t1) + 1);
  const cap = Math.max(0, i1 - i0);
  // `out` is reused when it is large enough (a frame draws many lines; their columns are read at once).
  const o: LineColumns =
    out && out.x.length >= cap
      ? out
      : {
          count: 0,
          x: new Float64Array(cap),
          first: new Float64Array(cap),
          min: new Float64Array(cap),
          max: new Float64Array(cap),
          last: new Float64Array(cap),
        };
  o.count = 0;
  let k = -1;
  for (let i = i0; i < i1; i++) {
    const x = Math.round(t[i] * xk + xb);
    if (k >= 0 && o.x[k] === x) {
      if (level.min[i] < o.min[k]) o.min[k] = level.min[i];
      if (level.max[i] > o.max[k]) o.max[k] = level.max[i];
      o.last[k] = level.last[i];
      continue;
    }
    k = o.count++;
    o.x[k] = x;
    o.first[k] = level.first[i];
    o.min[k] = level.min[i];
    o.max[k] = level.max[i];
    o.last[k] = level.last[i];
  }
  return o;
}

/**
 * Points of a scatter (t, y) in [t0, t1], at most one per pixel cell: cells of a width × height
 * grid already drawn are skipped (a bitmap, reset per call).
 */
export function decimatePoints(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  t0: number,
  t1: number,
  px: Affine,
  py: Affine,
  width: number,
  height: number,
): { x: Float64Array; y: Float64Array; count: number } {
  const i0 = lowerBound(t, t0);
  const i1 = upperBound(t, t1);
  const w = Math.max(1, Math.ceil(width) + 1);
  const h = Math.max(1, Math.ceil(height) + 1);
  const seen = new Uint8Array(w * h);
  const n = Math.max(0, Math.min(i1 - i0, w * h));
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let count = 0;
  for (let i = i0; i < i1 && count < n; i++) {
    const x = Math.round(t[i] * px.k + px.b);
    const yy = Math.round(y[i] * py.k + py.b);
    if (x < 0 || x >= w || yy < 0 || yy >= h || Number.isNaN(yy)) continue;
    const cell = yy * w + x;
    if (seen[cell]) continue;
    seen[cell] = 1;
    xs[count] = x;
    ys[count] = yy;
    count++;
  }
  return { x: xs, y: ys, count };
}

/**
 * Marks (t, y) in [t0, t1] that `keep` accepts, at most one per cell of `cell` × `cell` pixels:
 * where marks fall on top of each other one is drawn. Returns pixel positions, in time order.
 */
export function decimateMarks(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  t0: number,
  t1: number,
  px: Affine,
  py: Affine,
  width: number,
  height: number,
  cell: number,
  keep: (i: number) => boolean = () => true,
): { x: Float64Array; y: Float64Array; count: number } {
  const i0 = lowerBound(t, t0);
  const i1 = upperBound(t, t1);
  const w = Math.max(1, Math.ceil(width / cell) + 1);
  const h = Math.max(1, Math.ceil(height / cell) + 1);
  const seen = new Uint8Array(w * h);
  const n = Math.max(0, Math.min(i1 - i0, w * h));
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let count = 0;
  for (let i = i0; i < i1 && count < n; i++) {
    if (!keep(i)) continue;
    const x = t[i] * px.k + px.b;
    const yy = y[i] * py.k + py.b;
    const cx = Math.floor(x / cell);
    const cy = Math.floor(yy / cell);
    if (cx < 0 || cx >= w || cy < 0 || cy >= h || Number.isNaN(yy)) continue;
    const c = cy * w + cx;
    if (seen[c]) continue;
    seen[c] = 1;
    xs[count] = x;
    ys[count] = yy;
    count++;
  }
  return { x: xs, y: ys, count };
}

/**
 * Minimum and maximum of a column over index ranges, from per-block extremes computed once: a
 * query costs O(n / block + block) instead of O(range).
 */
export class RangeExtent {
  readonly #lo: ArrayLike<number>;
  readonly #hi: ArrayLike<number>;
  readonly #blockLo: Float64Array;
  readonly #blockHi: Float64Array;
  readonly #size: number;

  constructor(lo: ArrayLike<number>, hi: ArrayLike<number>, block = 512) {
    this.#lo = lo;
    this.#hi = hi;
    this.#size = block;
    const blocks = Math.ceil(lo.length / block);
    this.#blockLo = new Float64Array(blocks).fill(Infinity);
    this.#blockHi = new Float64Array(blocks).fill(-Infinity);
    for (let i = 0; i < lo.length; i++) {
      const b = (i / block) | 0;
      if (lo[i] < this.#blockLo[b]) this.#blockLo[b] = lo[i];
      if (hi[i] > this.#blockHi[b]) this.#blockHi[b] = hi[i];
    }
  }

  /** [min of lo, max of hi] over indices [i0, i1); [Infinity, -Infinity] when empty. */
  query(i0: number, i1: number): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    const size = this.#size;
    let i = i0;
    while (i < i1) {
      if (i % size === 0 && i + size <= i1) {
        const b = i / size;
        if (this.#blockLo[b] < lo) lo = this.#blockLo[b];
        if (this.#blockHi[b] > hi) hi = this.#blockHi[b];
        i += size;
      } else {
        if (this.#lo[i] < lo) lo = this.#lo[i];
        if (this.#hi[i] > hi) hi = this.#hi[i];
        i++;
      }
    }
    return [lo, hi];
  }
}
