// An experiment report (`tcpsim reproduce --json`, or runExperiment in the browser) as the paper's
// figure: per metric, bars per point and variant (E-TCP Figs. 5/6, Gürkan's tables), lines with 95%
// CIs against a swept parameter (TCP/SPAND Figs. 10–19), or a table of every metric (Savorić et
// al.'s tables); the paper's numbers beside ours; each claim with its verdict.
import type { ExperimentReport } from '@tcb-lab/sim';

export type Report = ExperimentReport;
type Cell = Report['cells'][number];
type Claim = Report['claims'][number];
type AxisValue = string | number | boolean;

/** The cell of a variant, point (index into report.points) and metric (index into report.metrics). */
export function cellAt(report: Report, variant: number, point: number, metric: number): Cell {
  return report.cells[(variant * report.points.length + point) * report.metrics.length + metric];
}

export interface Estimate {
  mean: number | null;
  /** The 95% interval of the mean; null with fewer than two runs. */
  ci: [number, number] | null;
  paper: number | null;
  paperNote?: string;
}

function estimate(cell: Cell): Estimate {
  const { mean, ci95 } = cell;
  return {
    mean,
    ci: mean !== null && ci95 !== null && ci95 !== undefined ? [mean - ci95, mean + ci95] : null,
    paper: cell.paper ?? null,
    ...(cell.paperNote ? { paperNote: cell.paperNote } : {}),
  };
}

export interface BarFigure {
  kind: 'bars';
  metric: number;
  title: string;
  yLabel: string;
  categories: string[];
  series: { name: string; values: Estimate[] }[];
}

export interface SweepFigure {
  kind: 'sweep';
  metric: number;
  title: string;
  xLabel: string;
  yLabel: string;
  lines: { name: string; points: ({ x: number } & Estimate)[] }[];
}

export interface TableFigure {
  kind: 'table';
  /** Rows: metrics; columns: variants (with the point's label when there are several points). */
  columns: string[];
  rows: { metric: number; label: string; values: Estimate[] }[];
}

export type Figure = BarFigure | SweepFigure | TableFigure;

const withUnit = (label: string, unit: string) => (unit ? `${label} (${unit})` : label);

/** The axis to plot against: the numeric one with the most values (at least three), if any. */
export function sweepAxis(report: Report): number {
  let best = -1;
  report.axes.forEach((a, i) => {
    const numeric = a.values.every((v) => typeof v.value === 'number');
    if (numeric && a.values.length >= 3 && (best < 0 || a.values.length > report.axes[best].values.length)) best = i;
  });
  return best;
}

/** A point's label without one axis (the x axis of a sweep): "" when no other axis remains. */
function labelWithout(report: Report, point: Record<string, AxisValue | undefined>, axis: number): string {
  return report.axes
    .filter((_, i) => i !== axis)
    .map((a) => {
      const v = point[a.name];
      const label = a.values.find((x) => x.value === v)?.label ?? String(v);
      return `${a.label} ${label}${a.unit ? ` ${a.unit}` : ''}`;
    })
    .join(', ');
}

/** The report's figures: one per metric (bars or lines), or one table when there is a single point. */
export function reportFigures(report: Report): Figure[] {
  const { variants, points, metrics } = report;
  if (points.length <= 1) {
    return [
      {
        kind: 'table',
        columns: variants.map((v) => v.label),
        rows: metrics.map((m, k) => ({ metric: k, label: withUnit(m.label, m.unit), values: variants.map((_, v) => estimate(cellAt(report, v, 0, k))) })),
      },
    ];
  }
  const axis = sweepAxis(report);
  if (axis >= 0) {
    const a = report.axes[axis];
    return metrics.map((m, k) => {
      // A line per variant and combination of the other axes' values, in point order.
      const lines = new Map<string, SweepFigure['lines'][number]>();
      variants.forEach((variant, v) => {
        points.forEach((p, i) => {
          const rest = labelWithout(report, p.point, axis);
          const name = rest ? `${variant.label}, ${rest}` : variant.label;
          let line = lines.get(name);
          if (!line) lines.set(name, (line = { name, points: [] }));
          line.points.push({ x: Number(p.point[a.name]), ...estimate(cellAt(report, v, i, k)) });
        });
      });
      return { kind: 'sweep', metric: k, title: m.label, xLabel: withUnit(a.label, a.unit), yLabel: withUnit(m.label, m.unit), lines: [...lines.values()] };
    });
  }
  return metrics.map((m, k) => ({
    kind: 'bars',
    metric: k,
    title: m.label,
    yLabel: withUnit(m.label, m.unit),
    categories: points.map((p) => p.label),
    series: variants.map((variant, v) => ({ name: variant.label, values: points.map((_, i) => estimate(cellAt(report, v, i, k))) })),
  }));
}

export type Verdict = 'agrees' | 'differs' | 'known difference' | 'not checked';

export interface ClaimView {
  text: string;
  verdict: Verdict;
  /** Why our simulator is known not to reproduce it (known differences). */
  reason?: string;
  /** "4 of 5 points agree". */
  detail: string;
  /** Savorić et al. §6's report of an unpaired t-test at each point (significant claims). */
  tests: { point: string; difference: number | null; level: number; interval: [number, number]; significant: boolean; outcome: string }[];
  claim: Claim;
}

/** Each claim with the verdict a reader needs: agrees, differs, a known difference (with why), not checked. */
export function claimViews(report: Report): ClaimView[] {
  return report.claims.map((c) => {
    const verdict: Verdict = c.verdict === 'differs' ? (c.known ? 'known difference' : 'differs') : c.verdict;
    const tests = (c.results ?? []).flatMap((r) =>
      r.reported
        ? [
            {
              point: pointLabel(report, r.point),
              difference: r.difference ?? null,
              level: r.reported.level,
              interval: r.reported.interval as [number, number],
              significant: r.reported.significant,
              outcome: r.outcome,
            },
          ]
        : [],
    );
    return {
      text: c.text,
      verdict,
      ...(c.known ? { reason: c.known } : {}),
      detail: c.verdict === 'not checked' ? 'no point of this claim is part of this size' : `${c.agreeing} of ${c.checked} point${c.checked === 1 ? '' : 's'} agree`,
      tests,
      claim: c,
    };
  });
}

/** The label of a point document ({"page": "etcp-java"}) as the report prints it. */
export function pointLabel(report: Report, point: Record<string, AxisValue | undefined>): string {
  const match = report.points.find((p) => report.axes.every((a) => p.point[a.name] === point[a.name]));
  return match?.label ?? 'all';
}

/** Counts per verdict, for the summary line of an experiment. */
export function verdictCounts(views: ClaimView[]): Record<Verdict, number> {
  const out: Record<Verdict, number> = { agrees: 0, differs: 0, 'known difference': 0, 'not checked': 0 };
  for (const v of views) out[v.verdict]++;
  return out;
}

export interface DocSection {
  /** The section's heading text, e.g. "Fig. 5, realistic (10-packet queue, 4 connections)". */
  heading: string;
  /** GitHub-style anchor of the heading. */
  anchor: string;
  /** The section's Markdown, heading excluded, up to the next heading of the same or a higher level. */
  body: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The section of a reproduction document (docs/reproduction/<paper>.md) that reports an experiment:
 * the one whose text lists most of the experiment's claims (the docs print each claim's verdict
 * line as `tcpsim reproduce` does). Null when no section names any.
 */
export function docSection(markdown: string, claims: string[]): DocSection | null {
  const lines = markdown.split('\n');
  const sections: { level: number; heading: string; start: number; end: number }[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^(#{2,4})\s+(.*)$/.exec(line);
    if (m) sections.push({ level: m[1].length, heading: m[2].trim(), start: i, end: lines.length });
  });
  for (let s = 0; s < sections.length; s++) {
    const next = sections.slice(s + 1).find((o) => o.level <= sections[s].level);
    sections[s].end = next ? next.start : lines.length;
  }
  let best: { score: number; section: (typeof sections)[number] } | null = null;
  for (const section of sections) {
    // Only sections without subsections: the most specific one.
    if (sections.some((o) => o !== section && o.start > section.start && o.start < section.end)) continue;
    const body = lines.slice(section.start + 1, section.end).join('\n');
    const score = claims.filter((c) => body.includes(c)).length;
    if (score > 0 && (!best || score > best.score)) best = { score, section };
  }
  if (!best) return null;
  const { heading, start, end } = best.section;
  return { heading, anchor: headingAnchor(heading), body: lines.slice(start + 1, end).join('\n').trim() };
}
