// One run's numbers (the repeat visit's completion time and its cost, and the competitor's), and the
// runs of each grid point gathered into a cell with sim-core's statistics of the replications.
import type { Json, Result } from '@tcb-lab/sim';
import type { ReuseSpec } from './form';
import type { PathRoles } from './path';
import { visitBytes, type ReuseAxes } from './sweep';

export interface VisitMetrics {
  /** The repeat visit (copy 0's second page): from its first request to its last byte. */
  completionS: number | null;
  /** The first visit (cold), for reference. */
  firstS: number | null;
  /** Over the repeat visit's connections. */
  retransmissions: number | null;
  dropped: number | null;
  peakQueue: number | null;
  /** The competitor's repeat visit (copy 1), when there is one. */
  competitorS: number | null;
  competitorDropped: number | null;
  competitorRetransmissions: number | null;
}

export const metricKeys = ['completionS', 'firstS', 'retransmissions', 'dropped', 'peakQueue', 'competitorS', 'competitorDropped', 'competitorRetransmissions'] as const;
export type MetricKey = (typeof metricKeys)[number];

export const metricInfo: Record<MetricKey, { label: string; unit: string; competitor?: boolean }> = {
  completionS: { label: 'repeat visit: completion time', unit: 's' },
  firstS: { label: 'first visit (cold): completion time', unit: 's' },
  retransmissions: { label: 'repeat visit: retransmissions', unit: '' },
  dropped: { label: 'repeat visit: packets dropped', unit: '' },
  peakQueue: { label: 'repeat visit: longest queue joined', unit: 'packets' },
  competitorS: { label: 'competitor’s repeat visit: completion time', unit: 's', competitor: true },
  competitorDropped: { label: 'competitor’s repeat visit: packets dropped', unit: '', competitor: true },
  competitorRetransmissions: { label: 'competitor’s repeat visit: retransmissions', unit: '', competitor: true },
};

/** Copy `copy`'s repeat visit: its page and the connections it opened (those to its server from the page's start). */
function repeatVisit(summary: Result, roles: PathRoles, copy: number) {
  const page = summary.pages?.find((p) => p.item === 'visit' && p.client === copy && p.index === 1) ?? null;
  const first = summary.pages?.find((p) => p.item === 'visit' && p.client === copy && p.index === 0) ?? null;
  if (!page) return { page, first, flows: [] };
  const flows = (summary.flows ?? []).filter((f) => f.item === 'visit' && f.from === roles.clients[copy] && f.to === roles.servers[copy] && f.startS >= page.startS);
  return { page, first, flows };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The numbers of one run; null where the summary has none (a visit that did not start or end). */
export function visitMetrics(summary: Result, roles: PathRoles): VisitMetrics {
  if (!summary.pages || !summary.flows) throw new Error('the run summary has no pages or flows: run it at trace level summary or above');
  const own = repeatVisit(summary, roles, 0);
  const started = own.page !== null;
  const out: VisitMetrics = {
    completionS: own.page?.totalTimeS ?? null,
    firstS: own.first?.totalTimeS ?? null,
    retransmissions: started ? sum(own.flows.map((f) => f.retransmissions ?? 0)) : null,
    dropped: started ? sum(own.flows.map((f) => f.packetsDropped)) : null,
    peakQueue: started ? Math.max(0, ...own.flows.map((f) => f.maxQueuePackets)) : null,
    competitorS: null,
    competitorDropped: null,
    competitorRetransmissions: null,
  };
  if (roles.servers.length > 1) {
    const other = repeatVisit(summary, roles, 1);
    if (other.page) {
      out.competitorS = other.page.totalTimeS;
      out.competitorDropped = sum(other.flows.map((f) => f.packetsDropped));
      out.competitorRetransmissions = sum(other.flows.map((f) => f.retransmissions ?? 0));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The table.

/** One run as either path gives it: the grid point's parameters (by pointer) and the summary. */
export interface RunOutcome {
  point: number;
  params: Record<string, Json>;
  replication: number;
  summary: Result;
}

export interface Stats {
  n: number;
  mean: number | null;
  sd: number | null;
  /** The 95% Student-t confidence interval of the mean; null below two values. */
  ci95: [number, number] | null;
}

/** sim-core's statistics of several samples (the WASM build's summarizeSamples). */
export type Summarize = (samples: number[][]) => Promise<Stats[]>;

export interface Cell {
  point: number;
  scheme: string;
  /** Bytes (download) or page name. */
  size: number | string;
  /** Bytes of one visit. */
  bytes: number;
  idle: number;
  runs: number;
  resultHashes: string[];
  samples: Record<MetricKey, number[]>;
  /** Runs in which the metric had no value (a visit that did not finish within durationS). */
  missing: Record<MetricKey, number>;
  stats?: Record<MetricKey, Stats>;
}

/**
 * The runs grouped by grid point, in point order, each metric's values in replication order (the
 * order the statistics sum them in, so both paths give the same bits).
 */
export function collectCells(spec: ReuseSpec, axes: ReuseAxes, roles: PathRoles, runs: RunOutcome[]): Cell[] {
  const byPoint = new Map<number, Cell>();
  const ordered = [...runs].sort((a, b) => a.point - b.point || a.replication - b.replication);
  for (const r of ordered) {
    let cell = byPoint.get(r.point);
    if (!cell) {
      const sharing = r.params[axes.scheme] as { scheme: string };
      const sizeParam = r.params[axes.size];
      const size = spec.workload === 'download' ? (sizeParam as number) : (sizeParam as { named: string }).named;
      cell = {
        point: r.point,
        scheme: sharing.scheme,
        size,
        bytes: visitBytes(spec, size),
        idle: r.params[axes.idle] as number,
        runs: 0,
        resultHashes: [],
        samples: Object.fromEntries(metricKeys.map((k) => [k, []])) as unknown as Record<MetricKey, number[]>,
        missing: Object.fromEntries(metricKeys.map((k) => [k, 0])) as unknown as Record<MetricKey, number>,
      };
      byPoint.set(r.point, cell);
    }
    cell.runs++;
    cell.resultHashes.push(r.summary.resultHash ?? '');
    const m = visitMetrics(r.summary, roles);
    for (const k of metricKeys) {
      if (m[k] === null) cell.missing[k]++;
      else cell.samples[k].push(m[k]!);
    }
  }
  return [...byPoint.values()];
}

/** Adds each cell's statistics (one call for the whole table). */
export async function summarizeCells(cells: Cell[], summarize: Summarize): Promise<Cell[]> {
  const samples = cells.flatMap((c) => metricKeys.map((k) => c.samples[k]));
  const stats = await summarize(samples);
  return cells.map((c, i) => ({ ...c, stats: Object.fromEntries(metricKeys.map((k, j) => [k, stats[i * metricKeys.length + j]])) as Record<MetricKey, Stats> }));
}

/** sim-core's statistics of a sample (summarizeSamples) as the table keeps them: the interval as [low, high]. */
export function statsOf(s: { n: number; mean: number | null; sd: number | null; halfWidth: number | null }): Stats {
  return { n: s.n, mean: s.mean, sd: s.sd, ci95: s.mean !== null && s.halfWidth !== null ? [s.mean - s.halfWidth, s.mean + s.halfWidth] : null };
}
