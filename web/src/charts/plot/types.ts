// What a plot and its parts share: scales, domains, the margins the axes take, legend entries and
// how axis numbers read.
import { format } from 'd3-format';
import type { ScaleLinear } from 'd3-scale';

export type Scale = ScaleLinear<number, number>;
export type Domain = [number, number];

export interface LegendEntry {
  name: string;
  color: string;
  /** A line sample: true for dashed, or its dash pattern ([2, 2] dotted); absent, a filled swatch. */
  dash?: boolean | number[];
  mark?: string;
  /** With onLegend: the entry is a toggle (e.g. a connection shown or hidden). */
  toggle?: number;
  off?: boolean;
}

/** Room for the axes around the marks, in CSS pixels. */
export const margin = { top: 8, right: 16, bottom: 40, left: 68 };

const si = format('~s');
const plain = format('~g');
/** Axis numbers: plain below 10 000 (0.25 s, not 250m), SI prefixes above (1.5M B). */
export const formatSi = (v: number) => (Math.abs(v) < 1e4 ? plain(v) : si(v));
/** Time axis numbers. */
export const formatTime = format('~g');

/** The plot's inner size (the marks' area) for its outer width and height, and a band's share. */
export function innerSize(width: number, height: number, bandHeight = 0) {
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  return { innerW, innerH, band: Math.min(bandHeight, innerH / 3) };
}
