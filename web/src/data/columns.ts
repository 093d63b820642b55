// Small helpers over sorted typed columns.

/** First index i in [lo, hi) with a[i] >= x (a sorted ascending). */
export function lowerBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i in [lo, hi) with a[i] > x. */
export function upperBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows of a column table whose key column equals each key: one index list per key. */
export function rowsByKey(key: ArrayLike<number>, keys: number): Int32Array[] {
  const counts = new Int32Array(keys);
  for (let i = 0; i < key.length; i++) if (key[i] >= 0 && key[i] < keys) counts[key[i]]++;
  const out = Array.from({ length: keys }, (_, k) => new Int32Array(counts[k]));
  const fill = new Int32Array(keys);
  for (let i = 0; i < key.length; i++) {
    const k = key[i];
    if (k >= 0 && k < keys) out[k][fill[k]++] = i;
  }
  return out;
}

/** Picks rows of a column, optionally divided (e.g. by NS, ns to s: division keeps 11e6 ns = 0.011 s exact). */
export function pick(column: ArrayLike<number>, rows: Int32Array, divisor = 1): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]] / divisor;
  return out;
}

/** Nanoseconds per second. */
export const NS = 1e9;
