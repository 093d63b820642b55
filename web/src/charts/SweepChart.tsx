// Mean against a swept parameter with 95% confidence-interval error bars (like TCP/SPAND Fig. 10),
// all SVG: React renders every element, d3 gives the scales and ticks. Where a paper printed a
// number, it is drawn beside ours as a hollow diamond.
import { scaleLinear, scalePoint } from 'd3-scale';
import { useId, useRef } from 'react';
import { toCsv } from '../data/csv';
import { colorOf } from '../data/palette';
import { ExportButtons, fmt, hasPaper, margin, PaperMark } from './staticChart';
import { useWidth } from './useWidth';

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
