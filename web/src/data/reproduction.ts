// An experiment report (`tcpsim reproduce --json`, or runExperiment in the browser) as the paper's
// figure: per metric, bars per point and variant (E-TCP Figs. 5/6, Gürkan's tables), lines with 95%
// CIs against a swept parameter (TCP/SPAND Figs. 10–19), or a table of every metric (Savorić et
// al.'s tables), and per claim that prints a number of its own (a gain, a ratio) its value at each
// point; the paper's numbers beside ours; each claim with its kind, its verdict and the paper's
// numbers against ours. The verdicts' names, marks and words come from the report (sim-core defines
// them once), not from here.
import type { ExperimentReport } from '@tcb-lab/sim';

export type Report = ExperimentReport;
type Cell = Report['cells'][number];
type Claim = Report['claims'][number];
type ClaimResult = Claim['results'][number];
type Magnitude = NonNullable<ClaimResult['magnitudes']>[number];
type AxisValue = string | number | boolean;

/** A verdict, as report.schema.json names them. */
export type Verdict = Claim['verdict'];
/** A paper number: a value, or a range whose open end is a bound ("more than 50 %"). */
export type PaperNumber = number | { min?: number; max?: number };

/** The report version this page reads (report.schema.json's schemaVersion). */
export const reportVersion = 2;
/** Whether a stored report (a reproduction run before verdicts covered magnitudes) can be shown. */
export function isCurrentReport(report: { schemaVersion: number }): boolean {
  return report.schemaVersion === reportVersion;
}

/** The cell of a variant, point (index into report.points) and metric (index into report.metrics). */
export function cellAt(report: Report, variant: number, point: number, metric: number): Cell {
  return report.cells[(variant * report.points.length + point) * report.metrics.length + metric];
}

export interface Estimate {
  mean: number | null;
  /** The 95% interval of the mean; null with fewer than two runs. */
  ci: [number, number] | null;
  paper: PaperNumber | null;
  /** ours / paper; null without a paper number, or when they have opposite signs. */
  paperRatio: number | null;
  /** Whether ours is within the paper number's tolerance. */
  paperWithin?: boolean;
  paperNote?: string;
}

function estimate(cell: Cell): Estimate {
  const { mean, ci95 } = cell;
  return {
    mean,
    ci: mean !== null && ci95 !== null && ci95 !== undefined ? [mean - ci95, mean + ci95] : null,
    paper: cell.paper ?? null,
    paperRatio: cell.paperRatio ?? null,
    ...(cell.paperWithin !== undefined ? { paperWithin: cell.paperWithin } : {}),
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

/** A claim with a paper number of its own (E-TCP's "6-46 % sooner", RFC 9959's 0.44): ours at each point, the paper's as ◇. */
export interface ClaimFigure {
  kind: 'claim';
  claim: number;
  title: string;
  yLabel: string;
  categories: string[];
  values: Estimate[];
}

export type Figure = BarFigure | SweepFigure | TableFigure | ClaimFigure;

/** Whether a figure shows any of the paper's numbers (as ◇ marks, or in brackets in a table). */
export function figureHasPaper(figure: Figure): boolean {
  const any = (values: Estimate[]) => values.some((e) => e.paper !== null);
  switch (figure.kind) {
    case 'bars':
      return figure.series.some((s) => any(s.values));
    case 'sweep':
      return figure.lines.some((l) => any(l.points));
    case 'table':
      return figure.rows.some((r) => any(r.values));
    case 'claim':
      return any(figure.values);
  }
}

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

/**
 * The report's figures: one per metric (bars or lines), or one table when there is a single point;
 * then one per claim with a paper number of its own.
 */
export function reportFigures(report: Report): Figure[] {
  return [...metricFigures(report), ...claimFigures(report)];
}

function metricFigures(report: Report): Figure[] {
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

const measureWords: Record<NonNullable<Claim['measure']>, (a: string, b: string) => string> = {
  ratio: (a, b) => `${a} / ${b}`,
  reduction: (a, b) => `reduction: 1 − ${a} / ${b}`,
  increase: (a, b) => `increase: ${a} / ${b} − 1`,
  saving: (a, b) => `saving: ${b} − ${a}`,
};

function variantLabel(report: Report, name: string): string {
  return report.variants.find((v) => v.name === name)?.label ?? name;
}

function paperOfClaim(claim: Claim): PaperNumber | null {
  const p = claim.paper;
  if (!p) return null;
  if (p.value !== undefined) return p.value;
  return { ...(p.min !== undefined ? { min: p.min } : {}), ...(p.max !== undefined ? { max: p.max } : {}) };
}

const finite = (x: number | string | null | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/** Per claim with a paper number of its own: ours at each point it checked, the paper's beside it. */
export function claimFigures(report: Report): ClaimFigure[] {
  const figures: ClaimFigure[] = [];
  report.claims.forEach((c, k) => {
    const paper = paperOfClaim(c);
    if (paper === null || c.results.length === 0) return;
    const first = c.results[0];
    const metric = report.metrics.find((m) => m.name === first.a.metric);
    const a = variantLabel(report, first.a.variant);
    const b = first.b ? variantLabel(report, first.b.variant) : '';
    const yLabel = c.test === 'ratio' ? `${metric?.label ?? first.a.metric}, ${measureWords[c.measure ?? 'ratio'](a, b)}` : `${metric?.label ?? first.a.metric}${metric?.unit ? ` (${metric.unit})` : ''}, ${a}`;
    figures.push({
      kind: 'claim',
      claim: k,
      title: c.text,
      yLabel,
      categories: c.results.map((r) => pointLabel(report, r.point)),
      values: c.results.map((r) => {
        const m = r.magnitudes?.find((x) => x.source === 'claim');
        const mean = c.test === 'ratio' ? finite(r.measured ?? r.ratio) : r.a.mean;
        return { mean, ci: null, paper, paperRatio: m?.factor ?? null, ...(m ? { paperWithin: m.within } : {}) };
      }),
    });
  });
  return figures;
}

/** A paper number as text: "0.44", "0.06–0.46", "≥ 0.5". */
export function paperText(paper: PaperNumber, format: (x: number) => string): string {
  if (typeof paper === 'number') return format(paper);
  if (paper.min !== undefined && paper.max !== undefined) return `${format(paper.min)}–${format(paper.max)}`;
  return paper.min !== undefined ? `≥ ${format(paper.min)}` : `≤ ${format(paper.max!)}`;
}

/** A tolerance as text: "±10 %", "±0.5", "±25 % or ±0.005". */
export function toleranceText(t: { relative: number; absolute: number }): string {
  const r = `±${+(t.relative * 100).toPrecision(3)} %`;
  const a = `±${+t.absolute.toPrecision(3)}`;
  if (t.absolute <= 0) return r;
  return t.relative > 0 ? `${r} or ${a}` : a;
}

/** One paper number against ours, for the claims' paper / ours / ratio tables. */
export interface MagnitudeRow {
  /** Where: the point, and the variant for a cell's paper value. */
  where: string;
  paper: PaperNumber;
  ours: number | null;
  /** ours / paper (for a range, over its nearer end; 1 inside); null with opposite signs (see note). */
  factor: number | null;
  note?: string;
  within: boolean;
  tolerance: string;
}

function magnitudeRow(report: Report, r: ClaimResult, m: Magnitude): MagnitudeRow {
  // With one point there is nothing to tell apart.
  const point = report.points.length > 1 ? pointLabel(report, r.point) : 'all';
  const where = m.source === 'cell' && m.variant ? `${variantLabel(report, m.variant)}${point === 'all' ? '' : `, ${point}`}` : point;
  return {
    where,
    paper: m.paper,
    ours: finite(m.ours),
    factor: m.factor,
    ...(m.note ? { note: m.note } : {}),
    within: m.within,
    tolerance: toleranceText(m.tolerance),
  };
}

export interface ClaimView {
  text: string;
  /** What kind of agreement the claim is: order, ratio, magnitude, significance. */
  kind: Claim['kind'];
  verdict: Verdict;
  /** The verdict's mark and words, as the report gives them ("≈", "direction agrees, magnitude ×4.5"). */
  mark: string;
  verdictText: string;
  /** Whether every part that does not agree has a known cause. */
  explained: boolean;
  /** The known causes that apply: of its test failing, of its magnitudes. */
  causes: { of: 'test' | 'magnitudes'; text: string }[];
  /** "4 of 5 points agree". */
  detail: string;
  /** The paper's numbers against ours, those outside their tolerance first. */
  magnitudes: MagnitudeRow[];
  /** Where the claim's own paper number comes from, and its tolerance's basis. */
  source?: string;
  toleranceBasis?: string;
  /** Savorić et al. §6's report of an unpaired t-test at each point (significant claims). */
  tests: { point: string; difference: number | null; level: number; interval: [number, number]; significant: boolean; outcome: string }[];
  claim: Claim;
}

/** Each claim as a reader needs it: its verdict in the report's words, its causes, and the paper's numbers beside ours. */
export function claimViews(report: Report): ClaimView[] {
  return report.claims.map((c) => {
    const tests = c.results.flatMap((r) =>
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
    const rows = c.results.flatMap((r) => (r.magnitudes ?? []).map((m) => magnitudeRow(report, r, m)));
    const causes: ClaimView['causes'] = [];
    if (c.known) causes.push({ of: 'test', text: c.known });
    if (c.knownMagnitude) causes.push({ of: 'magnitudes', text: c.knownMagnitude });
    return {
      text: c.text,
      kind: c.kind,
      verdict: c.verdict,
      mark: c.mark,
      verdictText: c.verdictText,
      explained: c.explained,
      causes,
      detail: c.verdict === 'not checked' ? 'no point of this claim is part of this size' : `${c.agreeing} of ${c.checked} point${c.checked === 1 ? '' : 's'} agree`,
      magnitudes: [...rows.filter((m) => !m.within), ...rows.filter((m) => m.within)],
      ...(c.paper ? { source: c.paper.source } : {}),
      ...(c.tolerance?.basis ? { toleranceBasis: c.tolerance.basis } : {}),
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

type Significance = { level: number; interval: number[]; significant: boolean };

/** One difference as Savorić et al. §6 print it: "0.99 : (−9.52, −2.26)", "n.s." when not significant. */
export function significanceText(s: Significance | null): string {
  if (!s) return '–';
  const [low, high] = s.interval;
  const bound = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(Math.max(Math.abs(low), Math.abs(high)) < 1 ? 3 : 2)}`;
  return `${s.level.toFixed(2)} : (${bound(low)}, ${bound(high)})${s.significant ? '' : ' n.s.'}`;
}

export interface DifferenceTableView {
  /** "no TCBI − MV-TCBI" per other variant, in the report's order. */
  columns: string[];
  rows: { metric: string; point: string | null; cells: { ours: string; paper: string | null; same: boolean | null }[] }[];
  /** Of the differences with both ours and the paper's, how many reach the paper's conclusion. */
  same: number;
  compared: number;
}

/** The report's significance table (Savorić et al. Tables 3 and 5): a row per metric and point, ours and the paper's per other variant. */
export function differenceTable(report: Report): DifferenceTableView | null {
  const d = report.differences;
  if (!d) return null;
  const others = [...new Set(d.rows.map((r) => r.variant))];
  const from = variantLabel(report, d.from);
  const several = report.points.length > 1;
  const rows: DifferenceTableView['rows'] = [];
  const index = new Map<string, number>();
  let same = 0;
  let compared = 0;
  for (const r of d.rows) {
    const key = `${r.metric}|${JSON.stringify(r.point)}`;
    if (!index.has(key)) {
      const metric = report.metrics.find((m) => m.name === r.metric)!;
      index.set(key, rows.length);
      rows.push({ metric: withUnit(metric.label, metric.unit), point: several ? pointLabel(report, r.point) : null, cells: others.map(() => ({ ours: '–', paper: null, same: null })) });
    }
    rows[index.get(key)!].cells[others.indexOf(r.variant)] = { ours: significanceText(r.ours), paper: r.paper ? significanceText(r.paper) : null, same: r.sameConclusion ?? null };
    if (r.sameConclusion !== undefined) {
      compared += 1;
      if (r.sameConclusion) same += 1;
    }
  }
  return { columns: others.map((v) => `${from} − ${variantLabel(report, v)}`), rows, same, compared };
}

/** The report's verdicts (their marks and words) with how many claims have each, in the report's order. */
export function verdictCounts(report: Report): (Report['verdicts'][number] & { count: number })[] {
  return report.verdicts.map((v) => ({ ...v, count: report.claimSummary.counts[v.verdict] }));
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
