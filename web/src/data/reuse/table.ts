// The cells as the view shows them: a line per scheme against the idle time or the size, the cost
// table at one point, every cell as a table row, and where a planner's error belongs in the form.
import { gridPointerOf } from '../sweepValues';
import { bytesLabel } from '../units';
import type { Cell, MetricKey } from './cells';
import { metricInfo, metricKeys } from './cells';
import { builtInPages, type ReuseForm, type ReuseSpec, type Workload } from './form';
import type { ReuseAxes } from './sweep';

export interface SweepPoint {
  x: number | string;
  mean: number | null;
  ci: [number, number] | null;
}

/** One line per scheme (in the spec's order): a metric against the idle time at one size, or against the size at one idle time. */
export function linesAgainst(cells: Cell[], spec: ReuseSpec, against: 'idle' | 'size', fixed: number | string, metric: MetricKey): { name: string; points: SweepPoint[] }[] {
  return spec.schemes.map((scheme) => ({
    name: scheme,
    points: cells
      .filter((c) => c.scheme === scheme && (against === 'idle' ? c.size === fixed : c.idle === fixed))
      .sort((a, b) => (against === 'idle' ? a.idle - b.idle : a.bytes - b.bytes))
      .map((c) => {
        const s = c.stats?.[metric];
        return { x: against === 'idle' ? c.idle : c.bytes, mean: s?.mean ?? null, ci: spec.replications > 1 ? (s?.ci95 ?? null) : null };
      }),
  }));
}

export interface CostRow {
  scheme: string;
  cell: Cell;
  /** Mean repeat-visit time minus the baseline scheme's, and relative to it. */
  gainS: number | null;
  gainRelative: number | null;
}

/**
 * The cost table at one size and idle time: a row per scheme, with the completion time against the
 * baseline (independent when compared, else the first scheme).
 */
export function costRows(cells: Cell[], spec: ReuseSpec, size: number | string, idle: number): { baseline: string; rows: CostRow[] } {
  const at = spec.schemes.map((scheme) => cells.find((c) => c.scheme === scheme && c.size === size && c.idle === idle)).filter((c): c is Cell => !!c);
  const baseline = spec.schemes.includes('independent') ? 'independent' : spec.schemes[0];
  const base = at.find((c) => c.scheme === baseline)?.stats?.completionS.mean ?? null;
  return {
    baseline,
    rows: at.map((cell) => {
      const mean = cell.stats?.completionS.mean ?? null;
      const gainS = mean === null || base === null ? null : mean - base;
      return { scheme: cell.scheme, cell, gainS, gainRelative: gainS === null || !base ? null : gainS / base };
    }),
  };
}

/** Sizes as the axis labels them: 5.3 MB, 100 kB; pages by name and size. */
export function sizeLabel(spec: Pick<ReuseSpec, 'workload'>, size: number | string): string {
  if (spec.workload === 'page') {
    const p = builtInPages.find((x) => x.name === size);
    return p ? `${size} (${bytesLabel(p.bytes)}, ${p.objects} objects)` : String(size);
  }
  return bytesLabel(size as number);
}

/** The table's numbers, for comparing two runs of the same sweep: every cell's statistics and run hashes. */
export function tableNumbers(cells: Cell[]) {
  return cells.map((c) => ({ point: c.point, scheme: c.scheme, size: c.size, idle: c.idle, runs: c.runs, resultHashes: c.resultHashes, stats: c.stats ?? null }));
}
/**
 * The form field an error of the planner or the service belongs to, from its path in the batch
 * request ("$.grid['/traffic/0/thinkS'][2]", "$.scenario.topology", "$.replications"); null for
 * the sweep as a whole.
 */
export function fieldOfPath(path: string | undefined, axes: ReuseAxes, workload: Workload): keyof ReuseForm | null {
  if (!path) return null;
  const axis = gridPointerOf(path, [axes.scheme, axes.size, axes.idle]);
  if (axis === axes.scheme) return 'schemes';
  if (axis === axes.size) return workload === 'download' ? 'sizes' : 'pages';
  if (axis === axes.idle) return 'idle';
  if (path.startsWith('$.grid')) return null;
  if (path.startsWith('$.replications')) return 'replications';
  if (path.startsWith('$.scenario')) return 'path';
  return null;
}

/** Every cell as a table row: the grid point, runs, and each metric's mean and interval. */
export function cellsTable(cells: Cell[], spec: ReuseSpec): { columns: string[]; rows: (string | number | null)[][] } {
  const keys = metricKeys.filter((k) => spec.competitor || !metricInfo[k].competitor);
  return {
    columns: [
      'scheme',
      spec.workload === 'download' ? 'size (B)' : 'page',
      'idle (s)',
      'runs',
      ...keys.flatMap((k) => {
        const name = `${metricInfo[k].label}${metricInfo[k].unit ? ` (${metricInfo[k].unit})` : ''}`;
        return [name, `${name} ci95 low`, `${name} ci95 high`];
      }),
    ],
    rows: cells.map((c) => [
      c.scheme,
      c.size,
      c.idle,
      c.runs,
      ...keys.flatMap((k) => {
        const s = c.stats?.[k];
        return [s?.mean ?? null, s?.ci95?.[0] ?? null, s?.ci95?.[1] ?? null];
      }),
    ]),
  };
}

/**
 * Whether an axis's values read better evenly spaced, each labelled, than on a linear scale: when
 * they spread over more than a factor of 20 (1, 10, 60, 600 s; 100 kB to 5.3 MB), a linear axis
 * would crowd the small ones into one point.
 */
export function evenlySpaced(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  return values.length > 2 && positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 20;
}

/** The lines with each x replaced by its label (an evenly spaced axis). */
export function labelled<L extends { points: SweepPoint[] }>(lines: L[], label: (x: number) => string): L[] {
  return lines.map((l) => ({ ...l, points: l.points.map((p) => ({ ...p, x: label(p.x as number) })) }));
}
