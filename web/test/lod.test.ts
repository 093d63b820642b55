import { describe, expect, it } from 'vitest';
import { decimateStep, decimateStepLevel, decimateTicks, type TickColumns } from '../src/data/decimate';
import { pickLevel, stepPyramid, tickPyramid } from '../src/data/lod';

function segments(n: number, conns: number) {
  const t = Float64Array.from({ length: n }, (_, i) => (10 * i) / n);
  const conn = Int32Array.from({ length: n }, (_, i) => i % conns);
  const lo = Float64Array.from({ length: n }, (_, i) => Math.floor(i / conns) * 1000);
  const hi = Float64Array.from(lo, (v) => v + 1000);
  const retx = Uint8Array.from({ length: n }, (_, i) => (i % 1001 === 0 ? 1 : 0));
  return { t, lo, hi, conn, retx };
}

function span(d: TickColumns, c: number) {
  let lo = Infinity;
  let hi = -Infinity;
  let retx = 0;
  for (let k = 0; k < d.count; k++) {
    if (d.conn[k] !== c) continue;
    lo = Math.min(lo, d.lo[k]);
    hi = Math.max(hi, d.hi[k]);
    retx += d.retx[k];
  }
  return [lo, hi, retx > 0];
}

describe('tickPyramid', () => {
  const seg = segments(400_000, 5);
  const levels = tickPyramid(seg, 5, 10);

  it('keeps the raw segments as level 0 and shrinks each level, in time order', () => {
    expect(levels[0].seg).toBe(seg);
    expect(levels.length).toBeGreaterThan(2);
    for (let l = 1; l < levels.length; l++) {
      expect(levels[l].seg.t.length).toBeLessThan(levels[l - 1].seg.t.length);
      const t = levels[l].seg.t;
      for (let i = 1; i < t.length; i++) expect(t[i]).toBeGreaterThanOrEqual(t[i - 1]);
    }
  });

  it('draws the same coverage per connection as the raw segments', () => {
    const width = 1000;
    const px = { k: width / 10, b: 0 };
    const level = pickLevel(levels, 10 / width);
    expect(level.bucketS).toBeGreaterThan(0);
    expect(level.bucketS).toBeLessThanOrEqual(10 / width);
    const raw = decimateTicks(seg, 5, 0, 10, px);
    const lod = decimateTicks(level.seg, 5, 0, 10, px);
    expect(lod.count).toBeLessThanOrEqual(5 * 2 * (width + 1));
    for (let c = 0; c < 5; c++) expect(span(lod, c)).toEqual(span(raw, c));
  });
});

describe('stepPyramid', () => {
  it('keeps each bucket’s extremes: every column within its raw neighbours, the same overall', () => {
    const n = 50_000;
    const t = Float64Array.from({ length: n }, (_, i) => i / 1000);
    const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 50) * 100 + (i % 7));
    const levels = stepPyramid(t, y, 50);
    expect(levels.length).toBeGreaterThan(1);
    const px = { k: 20, b: 0 }; // 1000 px over 50 s
    const level = pickLevel(levels, 50 / 1000);
    expect(level.bucketS).toBeGreaterThan(0);
    const a = decimateStep(t, y, 0, 50, px);
    const b = decimateStepLevel(level, 0, 50, px);
    expect(Math.abs(b.count - a.count)).toBeLessThanOrEqual(1);
    const rawAt = new Map<number, [number, number]>();
    for (let k = 0; k < a.count; k++) rawAt.set(a.x[k], [a.min[k], a.max[k]]);
    for (let k = 0; k < b.count; k++) {
      const near = [-1, 0, 1].map((dx) => rawAt.get(b.x[k] + dx)).filter((v): v is [number, number] => !!v);
      expect(b.min[k]).toBeGreaterThanOrEqual(Math.min(...near.map((v) => v[0])));
      expect(b.max[k]).toBeLessThanOrEqual(Math.max(...near.map((v) => v[1])));
    }
    expect(Math.min(...b.min.subarray(0, b.count))).toBe(Math.min(...a.min.subarray(0, a.count)));
    expect(Math.max(...b.max.subarray(0, b.count))).toBe(Math.max(...a.max.subarray(0, a.count)));
  });
});
