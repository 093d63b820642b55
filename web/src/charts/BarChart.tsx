// Grouped bars with optional error bars (HTML vs total time per scheme, like E-TCP Fig. 5), all
// SVG: React renders every element, d3 gives the scales and ticks. A scheme has its colour in
// every chart (data/palette.ts): series named after schemes take theirs; categories that are
// schemes colour their bars, a lighter shade per series; other series are shades of grey. Where a
// paper printed a number, it is drawn beside ours as a hollow diamond (a range as a diamond at each
// end joined by a dashed line). Bars grow from 0, downwards for negative values. A chart whose values are
// all missing or all 0 says so instead of drawing an empty axis.
import { hcl } from 'd3-color';
import { scaleBand, scaleLinear } from 'd3-scale';
import { toCsv } from '../data/csv';
import { neutralColors, schemeColor } from '../data/palette';
import type { LegendEntry } from './plot/types';
import { axisFormat, hasPaper, margin, paperEnds, PaperMarks, paperEntry, type PaperValue, StaticFigure, YGrid, YLabel } from './staticChart';

export interface Bars {
  categories: string[];
  /** ci: an error bar per value, by default the 95% confidence interval (rangeName "ci95"). */
  series: { name: string; values: (number | null)[]; ci?: ([number, number] | null)[]; rangeName?: string; paper?: (PaperValue | null)[] }[];
}

/** The k-th shade of a colour: the colour itself, then lighter. */
const shade = (color: string, k: number) => (k === 0 ? color : hcl(color).brighter(0.8 * k).formatHex());

/** How each bar is coloured, and the legend that says so. */
export function barColors(bars: Bars): { fill: (category: string, k: number) => string; legend: LegendEntry[] } {
  if (bars.series.every((s) => schemeColor(s.name))) {
    return { fill: (_, k) => schemeColor(bars.series[k].name)!, legend: bars.series.map((s) => ({ name: s.name, color: schemeColor(s.name)! })) };
  }
  const byCategory = bars.categories.length > 0 && bars.categories.every((c) => schemeColor(c));
  const neutral = (k: number) => neutralColors[k % neutralColors.length];
  return {
    fill: (category, k) => (byCategory ? shade(schemeColor(category)!, k) : neutral(k)),
    legend: bars.series.map((s, k) => ({ name: byCategory && bars.series.length > 1 ? `${s.name} (${k === 0 ? 'full' : 'lighter'} shade)` : s.name, color: byCategory ? shade('#4D4D4D', k) : neutral(k) })),
  };
}

export function BarChart({ title, yLabel, bars, height = 260, caption }: { title: string; yLabel: string; bars: Bars; height?: number; caption?: string }) {
  const values = bars.series.flatMap((s) => [...s.values, ...(s.ci ?? []).flatMap((c) => c ?? []), ...(s.paper ?? []).flatMap(paperEnds)]).filter((v): v is number => v !== null && v !== undefined);
  const empty = values.length === 0 ? `${title}: no values.` : values.every((v) => v === 0) ? `${title}: 0 for every ${bars.categories.length > 1 ? 'one of ' + bars.categories.join(', ') : bars.categories[0] ?? 'bar'}.` : null;
  const anyPaper = bars.series.some((s) => hasPaper(s.paper));
  const colors = barColors(bars);
  const fmt = axisFormat(yLabel);
  const csv = () =>
    toCsv({
      columns: ['category', ...bars.series.flatMap((s) => (s.ci ? [s.name, `${s.name} ${s.rangeName ?? 'ci95'} low`, `${s.name} ${s.rangeName ?? 'ci95'} high`] : [s.name]))],
      rows: bars.categories.map((c, i) => [c, ...bars.series.flatMap((s) => (s.ci ? [s.values[i], s.ci[i]?.[0] ?? null, s.ci[i]?.[1] ?? null] : [s.values[i]]))]),
    });
  return (
    <StaticFigure
      title={title}
      data={{ plot: 'bars', categories: bars.categories.length }}
      height={height}
      legend={[...colors.legend, ...(anyPaper ? [paperEntry] : [])]}
      csv={csv}
      empty={empty}
      ariaLabel={`${title}, ${yLabel}`}
      caption={caption}
    >
      {(width) => {
        const innerW = Math.max(50, width - margin.left - margin.right);
        const innerH = height - margin.top - margin.bottom;
        const x = scaleBand().domain(bars.categories).range([0, innerW]).padding(0.2);
        const inner = scaleBand().domain(bars.series.map((s) => s.name)).range([0, x.bandwidth()]).padding(0.08);
        const y = scaleLinear().domain([Math.min(0, ...values), Math.max(...values)]).nice().range([innerH, 0]);
        const y0 = y(0);
        return (
          <g transform={`translate(${margin.left},${margin.top})`} fontSize={11}>
            <YGrid y={y} innerW={innerW} format={fmt} />
            {bars.categories.map((c, i) => (
              <g key={c} transform={`translate(${x(c)},0)`}>
                {bars.series.map((s, k) => {
                  const v = s.values[i];
                  const ci = s.ci?.[i];
                  const paper = s.paper?.[i];
                  const bx = inner(s.name)!;
                  const w = inner.bandwidth();
                  return (
                    <g key={s.name}>
                      {v !== null && (
                        <rect x={bx} y={Math.min(y(v), y0)} width={w} height={Math.abs(y0 - y(v))} fill={colors.fill(c, k)}>
                          <title>{`${c}, ${s.name}: ${v}`}</title>
                        </rect>
                      )}
                      {ci && <path d={`M${bx + w / 2},${y(ci[0])}V${y(ci[1])}M${bx + w / 4},${y(ci[0])}h${w / 2}M${bx + w / 4},${y(ci[1])}h${w / 2}`} stroke="#000" fill="none" />}
                      {paper !== null && paper !== undefined && (
                        <PaperMarks x={bx + w / 2} y={y} value={paper} label={`${c}, ${s.name}: paper ${paperEnds(paper).join('–')}`} />
                      )}
                    </g>
                  );
                })}
                <text x={x.bandwidth() / 2} y={innerH + 16} textAnchor="middle">
                  {c}
                </text>
              </g>
            ))}
            <line x1={0} x2={innerW} y1={y0} y2={y0} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            <YLabel text={yLabel} innerH={innerH} />
          </g>
        );
      }}
    </StaticFigure>
  );
}
