// Charts of few marks, all SVG (React renders every element; d3 gives scales and ticks): grouped
// bars (HTML vs total time per scheme, like E-TCP Fig. 5) and sweep lines with confidence-interval
// error bars (like TCP/SPAND Fig. 10). Both export as SVG and PNG. Where a paper printed a number,
// it is drawn beside ours as a hollow diamond; a range the paper gives ("6-46 %") as a diamond at
// each end joined by a dashed line.
import { format } from 'd3-format';
import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { useId, useRef, useState } from 'react';
import { toCsv } from '../data/csv';
import { colorOf } from '../data/palette';
import { download, slug, svgToPng } from './export';
import { useWidth } from './useWidth';

const margin = { top: 10, right: 16, bottom: 48, left: 64 };
const si = format('~s');
const plain = format('~g');
/** Plain numbers below 10 000 (0.8 s, not 800m), SI prefixes above. */
const fmt = (v: number) => (Math.abs(v) < 1e4 ? plain(v) : si(v));

function ExportButtons({ title, svg, csv }: { title: string; svg: () => SVGSVGElement | null; csv: () => string }) {
  const [error, setError] = useState<string | null>(null);
  const text = () => {
    const el = svg();
    return el ? new XMLSerializer().serializeToString(el) : '';
  };
  return (
    <span className="plot-tools" role="toolbar" aria-label={`${title} tools`}>
      <button
        type="button"
        onClick={async () => {
          try {
            const el = svg();
            if (el) download(`${slug(title)}.png`, await svgToPng(text(), el.width.baseVal.value, el.height.baseVal.value));
          } catch (e) {
            setError(String(e));
          }
        }}
      >
        PNG
      </button>
      <button type="button" onClick={() => download(`${slug(title)}.svg`, text(), 'image/svg+xml')}>
        SVG
      </button>
      <button type="button" onClick={() => download(`${slug(title)}.csv`, csv(), 'text/csv')}>
        CSV
      </button>
      {error && <span role="alert" className="error">{error}</span>}
    </span>
  );
}

/** A paper's number: a value, or a range ({min, max}; an open end is a bound). */
export type PaperValue = number | { min?: number; max?: number };

export interface Bars {
  categories: string[];
  /** ci: an error bar per value, by default the 95% confidence interval (rangeName "ci95"). */
  series: { name: string; values: (number | null)[]; ci?: ([number, number] | null)[]; rangeName?: string; paper?: (PaperValue | null)[] }[];
}

/** The finite numbers a paper value spans. */
function paperEnds(p: PaperValue | null | undefined): number[] {
  if (p === null || p === undefined) return [];
  if (typeof p === 'number') return [p];
  return [p.min, p.max].filter((v): v is number => v !== undefined);
}

/** The paper's value: a hollow diamond (with a title for hover). */
function PaperMark({ x, y, label }: { x: number; y: number; label: string }) {
  return (
    <path d={`M${x},${y - 5}L${x + 5},${y}L${x},${y + 5}L${x - 5},${y}Z`} fill="#fff" stroke="#000" strokeWidth={1.5}>
      <title>{label}</title>
    </path>
  );
}

const hasPaper = (values: (PaperValue | null | undefined)[] | undefined) => !!values && values.some((v) => paperEnds(v).length > 0);

/** A paper value at x: a diamond, or one per end of a range joined by a dashed line. */
function PaperMarks({ x, y, value, label }: { x: number; y: (v: number) => number; value: PaperValue; label: string }) {
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

export function BarChart({ title, yLabel, bars, height = 260 }: { title: string; yLabel: string; bars: Bars; height?: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement>(null);
  const id = useId();
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const x = scaleBand().domain(bars.categories).range([0, innerW]).padding(0.2);
  const inner = scaleBand().domain(bars.series.map((s) => s.name)).range([0, x.bandwidth()]).padding(0.08);
  const extent = bars.series.flatMap((s) => [...s.values.map((v) => v ?? 0), ...(s.ci ?? []).flatMap((c) => c ?? []), ...(s.paper ?? []).flatMap(paperEnds)]);
  const max = Math.max(1e-9, ...extent);
  const min = Math.min(0, ...extent);
  const anyPaper = bars.series.some((s) => hasPaper(s.paper));
  // Bars grow from 0, downwards for negative values (a gain of the wrong sign).
  const y = scaleLinear().domain([min, max]).nice().range([innerH, 0]);
  const y0 = y(0);
  const csv = () =>
    toCsv({
      columns: ['category', ...bars.series.flatMap((s) => (s.ci ? [s.name, `${s.name} ${s.rangeName ?? 'ci95'} low`, `${s.name} ${s.rangeName ?? 'ci95'} high`] : [s.name]))],
      rows: bars.categories.map((c, i) => [c, ...bars.series.flatMap((s) => (s.ci ? [s.values[i], s.ci[i]?.[0] ?? null, s.ci[i]?.[1] ?? null] : [s.values[i]]))]),
    });
  return (
    <figure className="plot" aria-labelledby={`${id}-t`} data-plot="bars" data-categories={bars.categories.length}>
      <figcaption>
        <span id={`${id}-t`} className="plot-title">{title}</span>
        <ExportButtons title={title} svg={() => svgRef.current} csv={csv} />
      </figcaption>
      <div ref={ref}>
        <svg ref={svgRef} xmlns="http://www.w3.org/2000/svg" width={width} height={height} fontFamily="sans-serif" role="img" aria-label={`${title}, ${yLabel}`}>
          <rect width={width} height={height} fill="#fff" />
          <g transform={`translate(${margin.left},${margin.top})`} fontSize={11}>
            {y.ticks(5).map((t) => (
              <g key={t} transform={`translate(0,${y(t)})`}>
                <line x2={innerW} stroke="#000" strokeOpacity={0.08} />
                <text x={-8} dy="0.32em" textAnchor="end">{fmt(t)}</text>
              </g>
            ))}
            {bars.categories.map((c, i) => (
              <g key={c} transform={`translate(${x(c)},0)`}>
                {bars.series.map((s, k) => {
                  const v = s.values[i];
                  const ci = s.ci?.[i];
                  const paper = s.paper?.[i];
                  const bx = inner(s.name)!;
                  return (
                    <g key={s.name}>
                      {v !== null && (
                        <rect x={bx} y={Math.min(y(v), y0)} width={inner.bandwidth()} height={Math.abs(y0 - y(v))} fill={colorOf(k)}>
                          <title>{`${c}, ${s.name}: ${v}`}</title>
                        </rect>
                      )}
                      {ci && (
                        <path
                          d={`M${bx + inner.bandwidth() / 2},${y(ci[0])}V${y(ci[1])}M${bx + inner.bandwidth() / 4},${y(ci[0])}h${inner.bandwidth() / 2}M${bx + inner.bandwidth() / 4},${y(ci[1])}h${inner.bandwidth() / 2}`}
                          stroke="#000"
                          fill="none"
                        />
                      )}
                      {paper !== null && paper !== undefined && (
                        <PaperMarks x={bx + inner.bandwidth() / 2} y={y} value={paper} label={`${c}, ${s.name}: paper ${paperEnds(paper).join('–')}`} />
                      )}
                    </g>
                  );
                })}
                <text x={x.bandwidth() / 2} y={innerH + 16} textAnchor="middle">{c}</text>
              </g>
            ))}
            <line x1={0} x2={innerW} y1={y0} y2={y0} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={12}>{yLabel}</text>
          </g>
        </svg>
      </div>
      <ul className="legend">
        {bars.series.map((s, k) => (
          <li key={s.name}><span className="swatch" style={{ background: colorOf(k), borderColor: colorOf(k) }} />{s.name}</li>
        ))}
        {anyPaper && <li><span className="swatch paper-swatch">◇</span>the paper’s number (a range: ◇ at each end)</li>}
      </ul>
    </figure>
  );
}

export interface SweepLine {
  name: string;
  points: { x: number | string; mean: number | null; ci: [number, number] | null; paper?: number | null }[];
}

/** Mean against a swept parameter, with 95% CI error bars; numeric x on a linear axis, others as points. */
export function SweepChart({ title, xLabel, yLabel, lines, height = 280 }: { title: string; xLabel: string; yLabel: string; lines: SweepLine[]; height?: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement>(null);
  const id = useId();
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const xs = [...new Set(lines.flatMap((l) => l.points.map((p) => p.x)))];
  const numeric = xs.every((v) => typeof v === 'number');
  const xNum = scaleLinear()
    .domain([Math.min(...(xs as number[])), Math.max(...(xs as number[]))])
    .nice()
    .range([0, innerW]);
  const xCat = scalePoint<string>().domain(xs.map(String)).range([0, innerW]).padding(0.5);
  const px = (v: number | string) => (numeric ? xNum(v as number) : xCat(String(v))!);
  const values = lines.flatMap((l) => l.points.flatMap((p) => [p.mean, ...(p.ci ?? []), p.paper ?? null])).filter((v): v is number => v !== null && Number.isFinite(v));
  const anyPaper = lines.some((l) => hasPaper(l.points.map((p) => p.paper)));
  const y = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(1e-9, ...values)])
    .nice()
    .range([innerH, 0]);
  const csv = () =>
    toCsv({
      columns: ['series', 'x', 'mean', 'ci95_low', 'ci95_high'],
      rows: lines.flatMap((l) => l.points.map((p) => [l.name, p.x, p.mean, p.ci?.[0] ?? null, p.ci?.[1] ?? null])),
    });
  return (
    <figure className="plot" aria-labelledby={`${id}-t`} data-plot="sweep" data-lines={lines.length} data-points={lines.reduce((n, l) => n + l.points.length, 0)}>
      <figcaption>
        <span id={`${id}-t`} className="plot-title">{title}</span>
        <ExportButtons title={title} svg={() => svgRef.current} csv={csv} />
      </figcaption>
      <div ref={ref}>
        <svg ref={svgRef} xmlns="http://www.w3.org/2000/svg" width={width} height={height} fontFamily="sans-serif" role="img" aria-label={`${title}: ${yLabel} against ${xLabel}`}>
          <rect width={width} height={height} fill="#fff" />
          <g transform={`translate(${margin.left},${margin.top})`} fontSize={11}>
            {y.ticks(5).map((t) => (
              <g key={t} transform={`translate(0,${y(t)})`}>
                <line x2={innerW} stroke="#000" strokeOpacity={0.08} />
                <text x={-8} dy="0.32em" textAnchor="end">{fmt(t)}</text>
              </g>
            ))}
            {(numeric ? xNum.ticks(Math.max(2, Math.floor(innerW / 80))) : xs).map((t) => (
              <text key={String(t)} x={px(t)} y={innerH + 16} textAnchor="middle">{typeof t === 'number' ? fmt(t) : String(t)}</text>
            ))}
            <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            {lines.map((l, k) => {
              const pts = l.points.filter((p) => p.mean !== null);
              return (
                <g key={l.name} stroke={colorOf(k)} fill={colorOf(k)}>
                  <path d={pts.map((p, i) => `${i ? 'L' : 'M'}${px(p.x)},${y(p.mean!)}`).join('')} fill="none" strokeWidth={1.5} />
                  {l.points.map((p) =>
                    p.paper !== null && p.paper !== undefined ? (
                      <PaperMark key={`paper-${p.x}`} x={px(p.x)} y={y(p.paper)} label={`${l.name}, ${xLabel} ${p.x}: paper ${p.paper}`} />
                    ) : null,
                  )}
                  {pts.map((p) => (
                    <g key={String(p.x)}>
                      {p.ci && <path d={`M${px(p.x)},${y(p.ci[0])}V${y(p.ci[1])}M${px(p.x) - 4},${y(p.ci[0])}h8M${px(p.x) - 4},${y(p.ci[1])}h8`} fill="none" />}
                      <circle cx={px(p.x)} cy={y(p.mean!)} r={3}>
                        <title>{`${l.name}, ${xLabel} ${p.x}: ${p.mean}${p.ci ? ` (95% CI ${p.ci[0]} – ${p.ci[1]})` : ''}`}</title>
                      </circle>
                    </g>
                  ))}
                </g>
              );
            })}
            <text x={innerW / 2} y={innerH + 36} textAnchor="middle" fontSize={12}>{xLabel}</text>
            <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={12}>{yLabel}</text>
          </g>
        </svg>
      </div>
      <ul className="legend">
        {lines.map((l, k) => (
          <li key={l.name}><span className="swatch" style={{ background: colorOf(k), borderColor: colorOf(k) }} />{l.name}</li>
        ))}
        {anyPaper && <li><span className="swatch paper-swatch">◇</span>the paper’s value</li>}
      </ul>
    </figure>
  );
}
