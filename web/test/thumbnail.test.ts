// The gallery's thumbnails: step lines scaled into the box, decimated per pixel column.
import { describe, expect, it } from 'vitest';
import { cwndThumbnail } from '../src/data/thumbnail';
import type { FlowWindow } from '../src/data/series';

const win = (flow: number, t: number[], cwnd: number[]): FlowWindow =>
  ({ flow, name: `f${flow}`, t: Float64Array.from(t), cwnd: Float64Array.from(cwnd) }) as unknown as FlowWindow;

describe('cwndThumbnail', () => {
  it('scales time to the width and the largest window to the top', () => {
    const [a, b] = cwndThumbnail([win(0, [0, 5, 10], [1000, 2000, 4000]), win(3, [0, 10], [500, 500])], 100, 41);
    expect(a.flow).toBe(0);
    expect(a.d).toBe('M0,30.5V30.5V30.5V30.5H50V20.5V20.5V20.5V20.5H100V0.5V0.5V0.5V0.5');
    expect(b.flow).toBe(3);
    expect(b.d.startsWith('M0,35.5')).toBe(true);
  });

  it('reads a pixel column once however many rows fall in it, keeping its extremes', () => {
    const t = Array.from({ length: 10_001 }, (_, i) => i / 1000);
    const y = t.map((_, i) => (i % 2 ? 1000 : 0));
    const [line] = cwndThumbnail([win(0, t, y)], 50, 11);
    const columns = line.d.split(/[MH]/).filter(Boolean).length;
    expect(columns).toBeLessThanOrEqual(51);
    expect(line.d).toContain('V10.5V0.5');
  });

  it('gaps where a connection closed, nothing without windows', () => {
    const [line] = cwndThumbnail([win(0, [0, 1, 2, 3], [100, 100, NaN, 100])], 30, 11);
    expect(line.d.match(/M/g)!.length).toBe(2);
    expect(cwndThumbnail([], 10, 10)).toEqual([]);
  });

  it('writes no NaN where a connection closes inside a pixel column', () => {
    const lines = cwndThumbnail([win(0, [0, 1, 1.001, 3], [100, 200, NaN, 100]), win(1, [0, 0.5, 0.5001], [50, 60, NaN])], 10, 11);
    for (const l of lines) expect(l.d).not.toMatch(/NaN/);
    expect(lines).toHaveLength(2);
  });
});
