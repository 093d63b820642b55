// Levels of detail for the dense plots: segments and step lines merged into time buckets, each
// level 4× coarser than the one below. A frame decimates the coarsest level whose bucket is no
// wider than a pixel, so zoomed out it reads thousands of rows instead of millions, and draws the
// same picture to within a pixel.
import type { Segments } from './timeseq';

export interface TickLevel {
  /** Bucket width in seconds; 0 for the raw segments. */
  bucketS: number;
  seg: Segments;
}

export interface StepLevel {
  bucketS: number;
  t: Float64Array;
  first: Float64Array;
  min: Float64Array;
  max: Float64Array;
  last: Float64Array;
}

const FINEST_BUCKETS = 1 << 16;
const FACTOR = 4;
const COARSEST_BUCKETS = 512;

function widths(tMax: number): number[] {
  const out: number[] = [];
  for (let n = FINEST_BUCKETS; n >= COARSEST_BUCKETS; n /= FACTOR) out.push(Math.max(tMax, 1e-9) / n);
  return out;
}

/** Merges a level's ticks per (connection, retransmission flag) and bucket, keeping time order. */
function mergeTicks(src: Segments, connections: number, bucketS: number): Segments {
  const n = src.t.length;
  const t = new Float64Array(n);
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  const conn = new Int32Array(n);
  const retx = new Uint8Array(n);
  const slot = new Int32Array(connections * 2).fill(-1);
  const touched: number[] = [];
  let bucket = -1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const b = Math.floor(src.t[i] / bucketS);
    if (b !== bucket) {
      for (const key of touched) slot[key] = -1;
      touched.length = 0;
      bucket = b;
    }
    const key = src.conn[i] * 2 + src.retx[i];
    const k = slot[key];
    if (k >= 0) {
      if (src.lo[i] < lo[k]) lo[k] = src.lo[i];
      if (src.hi[i] > hi[k]) hi[k] = src.hi[i];
      continue;
    }
    slot[key] = count;
    touched.push(key);
    t[count] = src.t[i];
    lo[count] = src.lo[i];
    hi[count] = src.hi[i];
    conn[count] = src.conn[i];
    retx[count] = src.retx[i];
    count++;
  }
  return { t: t.slice(0, count), lo: lo.slice(0, count), hi: hi.slice(0, count), conn: conn.slice(0, count), retx: retx.slice(0, count) };
}

/** The raw segments and their coarser levels (only levels that shrink the data are kept). */
export function tickPyramid(seg: Segments, connections: number, tMax: number): TickLevel[] {
  const levels: TickLevel[] = [{ bucketS: 0, seg }];
  if (seg.t.length < 20_000) return levels;
  for (const w of widths(tMax)) {
    const below = levels[levels.length - 1].seg;
    const merged = mergeTicks(below, connections, w);
    if (merged.t.length < below.t.length * 0.8) levels.push({ bucketS: w, seg: merged });
  }
  return levels;
}

function mergeSteps(src: StepLevel, bucketS: number): StepLevel {
  const n = src.t.length;
  const out: StepLevel = {
    bucketS,
    t: new Float64Array(n),
    first: new Float64Array(n),
    min: new Float64Array(n),
    max: new Float64Array(n),
    last: new Float64Array(n),
  };
  let k = -1;
  let bucket = NaN;
  for (let i = 0; i < n; i++) {
    const b = Math.floor(src.t[i] / bucketS);
    if (b === bucket) {
      if (src.min[i] < out.min[k]) out.min[k] = src.min[i];
      if (src.max[i] > out.max[k]) out.max[k] = src.max[i];
      out.last[k] = src.last[i];
      continue;
    }
    bucket = b;
    k++;
    out.t[k] = src.t[i];
    out.first[k] = src.first[i];
    out.min[k] = src.min[i];
    out.max[k] = src.max[i];
    out.last[k] = src.last[i];
  }
  const m = k + 1;
  return { bucketS, t: out.t.slice(0, m), first: out.first.slice(0, m), min: out.min.slice(0, m), max: out.max.slice(0, m), last: out.last.slice(0, m) };
}

/** A step line (value holds until the next point) and its coarser levels. */
export function stepPyramid(t: Float64Array, y: Float64Array, tMax: number): StepLevel[] {
  const levels: StepLevel[] = [{ bucketS: 0, t, first: y, min: y, max: y, last: y }];
  if (t.length < 5_000) return levels;
  for (const w of widths(tMax)) {
    const below = levels[levels.length - 1];
    const merged = mergeSteps(below, w);
    if (merged.t.length < below.t.length * 0.8) levels.push(merged);
  }
  return levels;
}

/** The coarsest level whose buckets are no wider than a pixel (secondsPerPixel). */
export function pickLevel<L extends { bucketS: number }>(levels: L[], secondsPerPixel: number): L {
  let best = levels[0];
  for (const l of levels) if (l.bucketS <= secondsPerPixel) best = l;
  return best;
}
