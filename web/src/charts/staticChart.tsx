// What the SVG charts of few marks share (BarChart.tsx, SweepChart.tsx): the figure around the
// chart (title, tools, legend, and an export as a figure for a paper: figure.ts), margins, axis
// numbers in the axis's unit (sizes as 5.3 MB when the label says bytes), a y label that fits, and
// the paper's value as a hollow diamond.
import { format } from 'd3-format';
import type { ScaleLinear } from 'd3-scale';
import { useId, useRef, useState, type ReactNode } from 'react';
import { bytesLabel } from '../data/units';
import { download, slug, svgToPng } from './export';
import { composeFigure, useFigureSource } from './figure';
import { Legend } from './plot/Legend';
import type { LegendEntry } from './plot/types';
import { useWidth } from './useWidth';

export const margin = { top: 10, right: 16, bottom: 48, left: 64 };
const si = format('~s');
const plain = format('~g');
/** Plain numbers below 10 000 (0.8 s, not 800m), SI prefixes above. */
export const fmt = (v: number) => (Math.abs(v) < 1e4 ? plain(v) : si(v));

/** Axis numbers for an axis whose label names its unit: sizes in B, kB, MB; others as fmt. */
export function axisFormat(label: string): (v: number) => string {
  return /\((B|bytes)\)\s*$/.test(label) ? (v) => bytesLabel(v) : fmt;
}

/** The y axis's grid lines and numbers. */
export function YGrid({ y, innerW, format }: { y: ScaleLinear<number, number>; innerW: number; format: (v: number) => string }) {
  return (
    <>
      {y.ticks(5).map((t) => (
        <g key={t} transform={`translate(0,${y(t)})`}>
          <line x2={innerW} stroke="#000" strokeOpacity={0.08} />
          <text x={-8} dy="0.32em" textAnchor="end">
            {format(t)}
          </text>
        </g>
      ))}
    </>
  );
}

/** A rotated y label that fits the axis's height: its font shrinks rather than being cut off. */
export function YLabel({ text, innerH }: { text: string; innerH: number }) {
  const size = Math.max(8, Math.min(12, innerH / (0.62 * Math.max(1, text.length))));
  return (
    <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={size}>
      {text}
    </text>
  );
}

/** The paper's value: a hollow diamond (with a title for hover). */
export function PaperMark({ x, y, label }: { x: number; y: number; label: string }) {
  return (
    <path d={`M${x},${y - 5}L${x + 5},${y}L${x},${y + 5}L${x - 5},${y}Z`} fill="#fff" stroke="#000" strokeWidth={1.5}>
      <title>{label}</title>
    </path>
  );
}

/** A paper's number: a value, or a range ({min, max}; an open end is a bound). */
export type PaperValue = number | { min?: number; max?: number };

/** The finite numbers a paper value spans. */
export function paperEnds(p: PaperValue | null | undefined): number[] {
  if (p === null || p === undefined) return [];
  if (typeof p === 'number') return [p];
  return [p.min, p.max].filter((v): v is number => v !== undefined);
}

export const hasPaper = (values: (PaperValue | null | undefined)[] | undefined) => !!values && values.some((v) => paperEnds(v).length > 0);

/** A paper value at x: a diamond, or one per end of a range ("6-46 %") joined by a dashed line. */
export function PaperMarks({ x, y, value, label }: { x: number; y: (v: number) => number; value: PaperValue; label: string }) {
  const ends = paperEnds(value);
  return (
    <g>
      {ends.length === 2 && <line x1={x} x2={x} y1={y(ends[0])} y2={y(ends[1])} stroke="#000" strokeDasharray="3 2" />}
      {ends.map((v) => (
        <PaperMark key={v} x={x} y={y(v)} label={label} />
      ))}
    </g>
  );
}

/** The legend entry of the paper's values. */
export const paperEntry: LegendEntry = { name: 'the paper’s number (a range: ◇ at each end)', color: '#000', mark: '◇' };

export interface StaticFigureProps {
  title: string;
  /** The plot's kind and numbers, as data attributes (for tests and scripts). */
  data: Record<string, string | number>;
  height: number;
  legend: LegendEntry[];
  csv: () => string;
  /** Why there is nothing to draw ("every value is 0"): a note stands in for the chart. */
  empty?: string | null;
  /** The chart's SVG content for its width. */
  children: (width: number) => ReactNode;
  ariaLabel: string;
  /** A line under the chart: what it shows (also the exported figure's caption). */
  caption?: string;
}

/** A chart of few marks as a figure: title and tools, the SVG, its legend, its caption. */
export function StaticFigure({ title, data, height, legend, csv, empty, children, ariaLabel, caption }: StaticFigureProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement>(null);
  const id = useId();
  const source = useFigureSource();
  const [error, setError] = useState<string | null>(null);
  const dataAttrs = Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, String(v)]));
  const figure = () => composeFigure({ title, width, body: svgRef.current?.innerHTML ?? '', bodyHeight: height, legend, caption, source });
  return (
    <figure className="plot" aria-labelledby={`${id}-t`} {...dataAttrs} data-empty={empty ? 'true' : undefined}>
      <figcaption>
        <span id={`${id}-t`} className="plot-title">
          {title}
        </span>
        {!empty && (
          <span className="plot-tools" role="toolbar" aria-label={`${title} tools`}>
            <button
              type="button"
              onClick={async () => {
                try {
                  const f = figure();
                  download(`${slug(title)}.png`, await svgToPng(f.svg, f.width, f.height));
                } catch (e) {
                  setError(String(e));
                }
              }}
            >
              PNG
            </button>
            <button type="button" onClick={() => download(`${slug(title)}.svg`, figure().svg, 'image/svg+xml')}>
              SVG
            </button>
            <button type="button" onClick={() => download(`${slug(title)}.csv`, csv(), 'text/csv')}>
              CSV
            </button>
            {error && (
              <span role="alert" className="error">
                {error}
              </span>
            )}
          </span>
        )}
      </figcaption>
      {empty ? (
        <p className="note" data-testid="chart-empty">
          {empty}
        </p>
      ) : (
        <>
          <div ref={ref}>
            <svg ref={svgRef} xmlns="http://www.w3.org/2000/svg" width={width} height={height} fontFamily="sans-serif" role="img" aria-label={ariaLabel}>
              <rect width={width} height={height} fill="#fff" />
              {children(width)}
            </svg>
          </div>
          <Legend title={title} entries={legend} />
          {caption && <p className="plot-caption">{caption}</p>}
        </>
      )}
    </figure>
  );
}
