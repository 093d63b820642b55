// A batch's results in words: its parameters labelled from the schema (title and unit), values
// without JSON quotes, only the metrics that apply (a value at some point), a default metric that
// answers something (the page or completion time before the rest, and one that varies between the
// points), and its points as sweep lines.
import type { Batch } from '../api';
import { scenarioSchema } from '../schema';
import { pointerLabel } from './schemaForm';
import { valueLabel } from './sweepValues';

type Metric = Batch['metrics'][number];

/** What a metric at a point is: its mean where it has values. */
const meanAt = (p: Batch['points'][number], metric: string) => p.stats[metric]?.mean ?? null;

/** The metrics with a value at some point (a page time where the batch fetches pages, ...). */
export function applicableMetrics(batch: Batch): Metric[] {
  return batch.metrics.filter((m) => batch.points.some((p) => meanAt(p, m.name) !== null));
}

/** The metrics a reader asks for first, in order. */
const preferred = ['meanTotalTimeS', 'meanHtmlTimeS', 'meanCompletionTimeS'];

/**
 * The metric the chart shows first: of those that apply, a preferred one that differs between the
 * points, else any that differs (Jain's index of one flow is 1 everywhere), else the first.
 */
export function defaultMetric(batch: Batch): string {
  const metrics = applicableMetrics(batch);
  const varies = (m: Metric) => new Set(batch.points.map((p) => meanAt(p, m.name))).size > 1;
  const rank = (m: Metric) => (preferred.includes(m.name) ? preferred.indexOf(m.name) : preferred.length);
  const ordered = [...metrics].sort((a, b) => rank(a) - rank(b));
  return (ordered.find(varies) ?? ordered[0])?.name ?? '';
}

/** The parameter the chart's x axis shows first: a numeric one (lines then compare the others, such as schemes). */
export function defaultX(batch: Pick<Batch, 'pointers' | 'grid'>): string {
  return batch.pointers.find((p) => (batch.grid[p] ?? []).every((v) => typeof v === 'number')) ?? batch.pointers[0] ?? '';
}

/** A parameter of the batch in words ("initial window (segments)"). */
export const parameterLabel = (batch: Pick<Batch, 'scenario'>, pointer: string) => pointerLabel(scenarioSchema, batch.scenario, pointer);

export interface BatchLine {
  name: string;
  points: { x: number | string; mean: number | null; ci: [number, number] | null }[];
}

/** One line per combination of the other parameters: the metric's mean (and 95% CI) against `x`. */
export function batchLines(batch: Batch, x: string, metric: string): BatchLine[] {
  const params = batch.pointers;
  const others = params.filter((k) => k !== x);
  const lines = new Map<string, BatchLine>();
  for (const p of batch.points) {
    const name = others.map((k) => (others.length > 1 ? `${parameterLabel(batch, k)} ${valueLabel(p.params[k])}` : valueLabel(p.params[k]))).join(', ') || metric;
    if (!lines.has(name)) lines.set(name, { name, points: [] });
    const s = p.stats[metric];
    const v = p.params[x];
    const ci: [number, number] | null = s?.ci95 && !p.identicalReplications ? [s.ci95[0], s.ci95[1]] : null;
    lines.get(name)!.points.push({ x: typeof v === 'number' ? v : valueLabel(v), mean: s?.mean ?? null, ci });
  }
  return [...lines.values()];
}

/** Whether every point's replications were identical (the scenario draws no random number the seeds reach). */
export const allIdentical = (batch: Batch) => batch.replications > 1 && batch.points.length > 0 && batch.points.every((p) => p.runs < 2 || p.identicalReplications);
