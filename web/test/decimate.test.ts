import { describe, expect, it } from 'vitest';
import { affineOf, decimatePoints, decimateStep, decimateTicks, RangeExtent } from '../src/data/decimate';

function segments(n: number, conns: number) {
  const t = new Float64Array(n);
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  const conn = new Int32Array(n);
  const retx = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    t[i] = i / n;
    conn[i] = i % conns;
    lo[i] = Math.floor(i / conns) * 1000;
    hi[i] = lo[i] + 1000;
    retx[i] = i % 97 === 0 ? 1 : 0;
  }
  return { t, lo, hi, conn, retx };
}

describe('decimateTicks', () => {
  it('keeps every segment when each has its own pixel', () => {
    const seg = segments(10, 2);
    const d = decimateTicks(seg, 2, 0, 1, { k: 1000, b: 0 });
    expect(d.count).toBe(10);
    expect(Array.from(d.lo.subarray(0, 10))).toEqual(Array.from(seg.lo));
  });

  it('merges a connection’s segments within one pixel column into one tick spanning them all', () => {
    const seg = segments(1_000_000, 4);
    const d = decimateTicks(seg, 4, 0, 1, { k: 800, b: 0 });
    // At most one tick per connection, retransmission flag and column.
    expect(d.count).toBeLessThanOrEqual(800 * 4 * 2 + 8);
    expect(d.count).toBeGreaterThanOrEqual(800 * 4);
    // Coverage is kept: per connection the union of ticks spans the same bytes as the segments.
    for (let c = 0; c < 4; c++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let k = 0; k < d.count; k++) {
        if (d.conn[k] !== c) continue;
        lo = Math.min(lo, d.lo[k]);
        hi = Math.max(hi, d.hi[k]);
      }
      expect(lo).toBe(0);
      expect(hi).toBe(250_000_000);
    }
    // Every retransmission survives as a retransmission tick in its column.
    let retx = 0;
    for (let k = 0; k < d.count; k++) retx += d.retx[k];
    expect(retx).toBeGreaterThan(0);
  });

  it('looks only at the visible time range', () => {
    const seg = segments(1000, 1);
    const d = decimateTicks(seg, 1, 0.5, 0.6, { k: 1e6, b: -0.5e6 });
    expect(d.count).toBe(101);
    expect(d.lo[0]).toBe(500 * 1000);
  });
});

describe('decimateStep', () => {
  it('keeps first, lowest, highest and last per column, and the point before the view', () => {
    const t = [0, 1, 1.2, 1.4, 1.6, 3];
    const y = [5, 1, 9, 3, 4, 7];
    const d = decimateStep(t, y, 1, 2, { k: 0.5, b: 0.2 });
    expect(d.count).toBe(3);
    expect(Array.from(d.x.subarray(0, 3))).toEqual([0, 1, 2]);
    expect([d.first[1], d.min[1], d.max[1], d.last[1]]).toEqual([1, 1, 9, 4]);
    expect(d.first[0]).toBe(5);
  });
});

describe('decimatePoints', () => {
  it('draws one point per pixel cell', () => {
    const t = [0, 0.1, 0.2, 5];
    const y = [1, 1, 1, 2];
    const d = decimatePoints(t, y, 0, 10, { k: 1, b: 0 }, { k: 1, b: 0 }, 10, 10);
    expect(d.count).toBe(2);
  });
});

describe('affineOf', () => {
  it('is the linear scale’s map', () => {
    const scale = { domain: () => [2, 4], range: () => [0, 100] };
    const a = affineOf(scale);
    expect(3 * a.k + a.b).toBe(50);
  });
});

describe('RangeExtent', () => {
  it('answers like a scan over any range', () => {
    const n = 5000;
    const lo = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    const hi = Float64Array.from(lo, (v, i) => v + (i % 13));
    const r = new RangeExtent(lo, hi, 64);
    for (const [a, b] of [[0, n], [3, 70], [64, 128], [100, 4999], [10, 11], [7, 7]]) {
      let mn = Infinity;
      let mx = -Infinity;
      for (let i = a; i < b; i++) {
        mn = Math.min(mn, lo[i]);
        mx = Math.max(mx, hi[i]);
      }
      expect(r.query(a, b)).toEqual([mn, mx]);
    }
  });
});

describe('decimateMarks', () => {
  it('keeps one mark per cell, in time order, and only those accepted', async () => {
    const { decimateMarks } = await import('../src/data/decimate');
    const t = [0, 0.1, 0.2, 5, 5.05, 9];
    const y = [0, 0, 0, 50, 51, 100];
    const m = decimateMarks(t, y, 0, 10, { k: 10, b: 0 }, { k: -1, b: 100 }, 100, 100, 3);
    // 0 and 0.1 s share a 3-pixel cell (x 0 and 1); 0.2 s (x 2) too; 5 and 5.05 s likewise.
    expect(Array.from(m.x.subarray(0, m.count))).toEqual([0, 50, 90]);
    expect(Array.from(m.y.subarray(0, m.count))).toEqual([100, 50, 0]);
    const odd = decimateMarks(t, y, 0, 10, { k: 10, b: 0 }, { k: -1, b: 100 }, 100, 100, 3, (i) => i % 2 === 1);
    expect(Array.from(odd.x.subarray(0, odd.count))).toEqual([1, 50, 90]);
  });
});
