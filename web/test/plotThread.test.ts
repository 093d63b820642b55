// Handing a plot's marks to the plot worker: copies of the typed arrays, transferred.
import { describe, expect, it } from 'vitest';
import { transferableCopy } from '../src/charts/plotThread';

describe('transferableCopy', () => {
  it('copies every typed array once and lists its buffer, leaving the originals as they were', () => {
    const t = Float64Array.of(0, 1, 2);
    const marks = { kind: 'flow-series', lines: [{ flow: 3, t, values: [Float64Array.of(5, 6, 7)] }], windows: [{ t, y: Int32Array.of(1) }], names: ['a'] };
    const { copy, transfer } = transferableCopy(marks);
    expect(copy).toEqual(marks);
    expect(copy.lines[0].t).not.toBe(t);
    // The same array in two places is one copy.
    expect(copy.windows[0].t).toBe(copy.lines[0].t);
    expect(transfer).toHaveLength(3);
    expect(transfer).toContain(copy.lines[0].t.buffer);
    // Transferring the copies detaches them, not the page's arrays.
    structuredClone(copy, { transfer });
    expect(copy.lines[0].t.length).toBe(0);
    expect(Array.from(t)).toEqual([0, 1, 2]);
  });
});
