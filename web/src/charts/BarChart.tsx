// Grouped bars with optional error bars (HTML vs total time per scheme, like E-TCP Fig. 5), all
// SVG: React renders every element, d3 gives the scales and ticks. Where a paper printed a number,
// it is drawn beside ours as a hollow diamond.
import { scaleBand, scaleLinear } from 'd3-scale';
import { useId, useRef } from 'react';
import { toCsv } from '../data/csv';
import { colorOf } from '../data/palette';
import { ExportButtons, fmt, hasPaper, margin, PaperMark } from './staticChart';
import { useWidth } from './useWidth';

export interface Bars {
  categories: string[];
  /** ci: an error bar per value, by default the 95% confidence interval (rangeName "ci95"). */
  series: { name: string; values: (number | null)[]; ci?: ([number, number] | null)[]; rangeName?: string; paper?: (number | null)[] }[];
}

export function BarChart({ title, yLabel, bars, height = 260 }: { title: string; yLabel: string; bars: Bars; height?: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement>(null);
  const id = useId();
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const x = scaleBand().domain(bars.categories).range([0, innerW]).padding(0.2);
  const inner = scaleBand().domain(bars.series.map((s) => s.name)).range([0, x.bandwidth()]).padding(0.08);
  const max = Math.max(1e-9, ...bars.series.flatMap((s) => [...s.values.map((v) => v ?? 0), ...(s.ci ?? []).map((c) => c?.[1] ?? 0), ...(s.paper ?? []).map((v) => v ?? 0)]));
  const anyPaper = bars.series.some((s) => hasPaper(s.paper));
  const y = scaleLinear().domain([0, max]).nice().range([innerH, 0]);
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
                        <rect x={bx} y={y(v)} width={inner.bandwidth()} height={innerH - y(v)} fill={colorOf(k)}>
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
                      {paper !== null && paper !== undefined && <PaperMark x={bx + inner.bandwidth() / 2} y={y(paper)} label={`${c}, ${s.name}: paper ${paper}`} />}
                    </g>
                  );
                })}
                <text x={x.bandwidth() / 2} y={innerH + 16} textAnchor="middle">{c}</text>
              </g>
            ))}
            <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={12}>{yLabel}</text>
          </g>
        </svg>
      </div>
      <ul className="legend">
        {bars.series.map((s, k) => (
          <li key={s.name}><span className="swatch" style={{ background: colorOf(k), borderColor: colorOf(k) }} />{s.name}</li>
        ))}
        {anyPaper && <li><span className="swatch paper-swatch">◇</span>the paper’s value</li>}
      </ul>
    </figure>
  );
}
