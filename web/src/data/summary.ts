// Result summaries as tables: run metrics (for the difference table), flows, links and pages.
import type { Result } from '@tcb-lab/sim';

export interface Metric {
  key: string;
  label: string;
  unit: string;
  /** Lower is better (for marking the best variant). */
  lowerIsBetter: boolean;
  get(r: Result): number | null;
}

export const runMetrics: Metric[] = [
  { key: 'meanHtmlTimeS', label: 'mean HTML time', unit: 's', lowerIsBetter: true, get: (r) => r.run.pages.meanHtmlTimeS },
  { key: 'meanTotalTimeS', label: 'mean page time', unit: 's', lowerIsBetter: true, get: (r) => r.run.pages.meanTotalTimeS },
  { key: 'meanCompletionTimeS', label: 'mean completion time', unit: 's', lowerIsBetter: true, get: (r) => r.run.meanCompletionTimeS },
  { key: 'retrievalRateBytesPerS', label: 'page retrieval rate', unit: 'B/s', lowerIsBetter: false, get: (r) => r.run.pages.retrievalRateBytesPerS },
  { key: 'retransmissions', label: 'retransmissions', unit: '', lowerIsBetter: true, get: (r) => r.run.retransmissions },
  { key: 'timeouts', label: 'timeouts', unit: '', lowerIsBetter: true, get: (r) => r.run.timeouts },
  { key: 'dropped', label: 'packets dropped', unit: '', lowerIsBetter: true, get: (r) => r.run.packets.dropped },
  { key: 'jainIndex', label: "Jain's index", unit: '', lowerIsBetter: false, get: (r) => r.run.fairness.jainIndex },
  { key: 'transfersCompleted', label: 'transfers completed', unit: '', lowerIsBetter: false, get: (r) => r.run.transfersCompleted },
  { key: 'simulatedTimeS', label: 'simulated time', unit: 's', lowerIsBetter: true, get: (r) => r.simulatedTimeS },
];

export interface DiffRow {
  metric: Metric;
  values: (number | null)[];
  /** Each value minus the first (baseline) variant's; null where either is missing. */
  delta: (number | null)[];
  /** delta / baseline, null where the baseline is 0 or missing. */
  relative: (number | null)[];
  /** Index of the best variant, or -1 when all equal or none has a value. */
  best: number;
}

/** The difference table of compare mode: one row per metric that some variant has. */
export function differenceTable(results: Result[]): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const metric of runMetrics) {
    const values = results.map((r) => metric.get(r) ?? null);
    if (values.every((v) => v === null)) continue;
    const base = values[0];
    const delta = values.map((v) => (v === null || base === null ? null : v - base));
    const relative = delta.map((d) => (d === null || !base ? null : d / base));
    let best = -1;
    const present = values.filter((v): v is number => v !== null);
    if (new Set(present).size > 1) {
      const target = metric.lowerIsBetter ? Math.min(...present) : Math.max(...present);
      best = values.indexOf(target);
    }
    rows.push({ metric, values, delta, relative, best });
  }
  return rows;
}

export interface Table {
  columns: string[];
  rows: (string | number | null | undefined)[][];
}

export function flowTable(r: Result): Table {
  return {
    columns: ['flow', 'from', 'to', 'start (s)', 'end (s)', 'completion (s)', 'bytes', 'goodput (b/s)', 'retransmissions', 'timeouts'],
    rows: (r.flows ?? []).map((f) => [f.name, f.from, f.to, f.startS, f.endS, f.completionTimeS, f.bytes, f.goodputBps, f.retransmissions, f.timeouts]),
  };
}

export function linkTable(r: Result): Table {
  return {
    columns: ['link', 'from', 'to', 'utilisation', 'packets sent', 'queue drops', 'losses', 'drop rate', 'mean queue (packets)', 'max queue (packets)'],
    rows: (r.links ?? []).map((l) => [l.name, l.from, l.to, l.utilization, l.packetsSent, l.queueDrops, l.lossDrops, l.dropRate, l.meanQueuePackets, l.maxQueuePackets]),
  };
}

export function pageTable(r: Result): Table {
  return {
    columns: ['item', 'client', 'page', 'start (s)', 'objects', 'bytes', 'HTML time (s)', 'total time (s)'],
    rows: (r.pages ?? []).map((p) => [p.item, p.client, p.index, p.startS, p.objects, p.bytes, p.htmlTimeS, p.totalTimeS]),
  };
}

/** Number formatting for tables: up to 4 significant digits, integers as they are. */
export function formatValue(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return v.toExponential(3);
  return String(Number(v.toPrecision(4)));
}

/** Mean, lowest and highest completion time of each traffic item's finished flows, in item order. */
export function completionByItem(r: Result): { item: string; flows: number; mean: number; min: number; max: number }[] {
  const byItem = new Map<string, number[]>();
  for (const f of r.flows ?? []) {
    if (f.completionTimeS == null) continue;
    const list = byItem.get(f.item) ?? [];
    list.push(f.completionTimeS);
    byItem.set(f.item, list);
  }
  return [...byItem].map(([item, times]) => ({
    item,
    flows: times.length,
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    min: Math.min(...times),
    max: Math.max(...times),
  }));
}

/** The metric a comparison answers with first: the page's total time where pages were fetched, else the completion time. */
export function answerMetric(results: Result[]): Metric {
  const key = results.some((r) => r.run.pages.completed > 0) ? 'meanTotalTimeS' : 'meanCompletionTimeS';
  return runMetrics.find((m) => m.key === key)!;
}

/**
 * The run's numbers without what names the run and its scheme (its hash, scenario name and seed, the
 * groups its scheme formed): equal for runs in which the scheme changed nothing.
 */
function numbersOf(r: Result): string {
  const { resultHash: _hash, scenario: _scenario, groups: _groups, ...rest } = r as Result & { resultHash?: string };
  return JSON.stringify(rest);
}

/**
 * For each variant, the first earlier variant whose run gave exactly the same numbers (-1 if none),
 * and why where the summary tells: a scheme that formed no group, or whose saved state no
 * connection ever started from, changed nothing.
 */
export function identicalVariants(results: Result[]): { same: number; reason: string | null }[] {
  return results.map((r, i) => {
    const same = results.findIndex((o, j) => j < i && numbersOf(o) === numbersOf(r));
    if (same < 0) return { same, reason: null };
    const groups = r.groups ?? [];
    const reason =
      groups.length === 0
        ? 'its scheme formed no sharing group here, so every connection ran on its own'
        : groups.every((g) => (g.cacheHits ?? 0) === 0 && (g.cachedReuses ?? 0) === 0) && groups.every((g) => g.flows.length <= 1)
          ? 'no connection ever started from state its scheme had saved (none opened after another to the same destination had closed), and no two shared a group'
          : groups.every((g) => (g.cacheHits ?? 0) === 0 && (g.cachedReuses ?? 0) === 0)
            ? 'no connection ever started from state its scheme had saved, and sharing the live group changed no window'
            : 'its scheme acted, but changed no number the run reports';
    return { same, reason };
  });
}
