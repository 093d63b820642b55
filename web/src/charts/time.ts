// What every time-based chart shares: the visible time range and its setter (the plots of a run
// zoom together), the y range of what is visible, and numbers as the tooltips print them.
import { lowerBound, upperBound } from '../data/columns';
import type { Domain } from './Plot';

export interface TimeProps {
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
}

/** A y range over several step series, of the points between x0 and x1 (and the one before each). */
export function extentOf(arrays: { t: ArrayLike<number>; y: ArrayLike<number> }[], x0: number, x1: number, floor0 = true): Domain {
  let lo = floor0 ? 0 : Infinity;
  let hi = -Infinity;
  for (const { t, y } of arrays) {
    const i0 = Math.max(0, lowerBound(t, x0) - 1);
    const i1 = Math.min(t.length, upperBound(t, x1) + 1);
    for (let i = i0; i < i1; i++) {
      const v = y[i];
      if (Number.isNaN(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!Number.isFinite(hi)) return [0, 1];
  return [Number.isFinite(lo) ? lo : 0, hi];
}

/** A number in a tooltip: at most `digits` significant digits, no trailing zeros. */
export const fmt = (v: number, digits = 6) => String(Number(v.toPrecision(digits)));
