// Mean against a swept parameter with 95% confidence-interval error bars (like TCP/SPAND Fig. 10),
// all SVG: React renders every element, d3 gives the scales and ticks. A line named after a scheme
// has the scheme's colour (data/palette.ts). A line identical to an earlier one says so in the
// legend and is drawn dashed, so that neither hides the other. Where a paper printed a number, it
// is drawn beside ours as a hollow diamond (a range as a diamond at each end joined by a dashed
// line). With no values at all, it says so.
import { scaleLinear, scalePoint } from 'd3-scale';
import { toCsv } from '../data/csv';
import { colorOf, schemeColor } from '../data/palette';
import { axisFormat, hasPaper, margin, paperEnds, PaperMarks, paperEntry, type PaperValue, StaticFigure, YGrid, YLabel } from './staticChart';

export interface SweepLine {
  name: string;
  points: { x: number | string; mean: number | null; ci: [number, number] | null; paper?: PaperValue | null }[];
}

/** For each line, the earlier line with the very same points (none: -1). */
export function sameAs(lines: SweepLine[]): number[] {
  const key = (l: SweepLine) => JSON.stringify(l.points.map((p) => [p.x, p.mean]));
  return lines.map((l, k) => (l.points.some((p) => p.mean !== null) ? lines.findIndex((o, j) => j < k && key(o) === key(l)) : -1));
}

/** A line's colour: its scheme's, else the k-th of the palette's others. */
const lineColor = (l: SweepLine, k: number) => schemeColor(l.name) ?? colorOf(k);

/** Mean against a swept parameter, with 95% CI error bars; numeric x on a linear axis, others as points. */
export function SweepChart({ title, xLabel, yLabel, lines, height = 280, caption }: { title: string; xLabel: string; yLabel: string; lines: SweepLine[]; height?: number; caption?: string }) {
  const xs = [...new Set(lines.flatMap((l) => l.points.map((p) => p.x)))];
  const numeric = xs.every((v) => typeof v === 'number');
  const values = lines.flatMap((l) => l.points.flatMap((p) => [p.mean, ...(p.ci ?? []), ...paperEnds(p.paper)])).filter((v): v is number => v !== null && Number.isFinite(v));
  const anyPaper = lines.some((l) => hasPaper(l.points.map((p) => p.paper)));
  const same = sameAs(lines);
  const xFmt = axisFormat(xLabel);
  const yFmt = axisFormat(yLabel);
  const csv = () =>
    toCsv({
      columns: ['series', 'x', 'mean', 'ci95_low', 'ci95_high'],
      rows: lines.flatMap((l) => l.points.map((p) => [l.name, p.x, p.mean, p.ci?.[0] ?? null, p.ci?.[1] ?? null])),
    });
  const legend = [
    ...lines.map((l, k) => ({ name: same[k] >= 0 ? `${l.name} (the same as ${lines[same[k]].name})` : l.name, color: lineColor(l, k), dash: same[k] >= 0 ? [6, 4] : undefined })),
    ...(anyPaper ? [paperEntry] : []),
  ];
  return (
    <StaticFigure
      title={title}
      data={{ plot: 'sweep', lines: lines.length, points: lines.reduce((n, l) => n + l.points.length, 0), identical: same.filter((s) => s >= 0).length }}
      height={height}
      legend={legend}
      csv={csv}
      empty={values.length === 0 ? `${title}: no values to draw.` : null}
      ariaLabel={`${title}: ${yLabel} against ${xLabel}`}
      caption={caption}
    >
      {(width) => {
        const innerW = Math.max(50, width - margin.left - margin.right);
        const innerH = height - margin.top - margin.bottom;
        const xNum = scaleLinear()
          .domain([Math.min(...(xs as number[])), Math.max(...(xs as number[]))])
          .nice()
          .range([0, innerW]);
        const xCat = scalePoint<string>().domain(xs.map(String)).range([0, innerW]).padding(0.5);
        const px = (v: number | string) => (numeric ? xNum(v as number) : xCat(String(v))!);
        const y = scaleLinear()
          .domain([Math.min(0, ...values), Math.max(...values, Math.min(0, ...values) + 1e-9)])
          .nice()
          .range([innerH, 0]);
        return (
          <g transform={`translate(${margin.left},${margin.top})`} fontSize={11}>
            <YGrid y={y} innerW={innerW} format={yFmt} />
            {(numeric ? xNum.ticks(Math.max(2, Math.floor(innerW / 80))) : xs).map((t) => (
              <text key={String(t)} x={px(t)} y={innerH + 16} textAnchor="middle">
                {typeof t === 'number' ? xFmt(t) : String(t)}
              </text>
            ))}
            <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            {lines.map((l, k) => {
              const pts = l.points.filter((p) => p.mean !== null);
              const color = lineColor(l, k);
              return (
                <g key={l.name} stroke={color} fill={color}>
                  <path d={pts.map((p, i) => `${i ? 'L' : 'M'}${px(p.x)},${y(p.mean!)}`).join('')} fill="none" strokeWidth={1.5} strokeDasharray={same[k] >= 0 ? '6 4' : undefined} />
                  {l.points.map((p) =>
                    paperEnds(p.paper).length > 0 ? <PaperMarks key={`paper-${p.x}`} x={px(p.x)} y={y} value={p.paper!} label={`${l.name}, ${xLabel} ${p.x}: paper ${paperEnds(p.paper).join('–')}`} /> : null,
                  )}
                  {pts.map((p) => (
                    <g key={String(p.x)}>
                      {p.ci && <path d={`M${px(p.x)},${y(p.ci[0])}V${y(p.ci[1])}M${px(p.x) - 4},${y(p.ci[0])}h8M${px(p.x) - 4},${y(p.ci[1])}h8`} fill="none" />}
                      <circle cx={px(p.x)} cy={y(p.mean!)} r={same[k] >= 0 ? 2 : 3}>
                        <title>{`${l.name}, ${xLabel} ${p.x}: ${p.mean}${p.ci ? ` (95% CI ${p.ci[0]} – ${p.ci[1]})` : ''}`}</title>
                      </circle>
                    </g>
                  ))}
                </g>
              );
            })}
            <text x={innerW / 2} y={innerH + 36} textAnchor="middle" fontSize={12}>
              {xLabel}
            </text>
            <YLabel text={yLabel} innerH={innerH} />
          </g>
        );
      }}
    </StaticFigure>
  );
}
