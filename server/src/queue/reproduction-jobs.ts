// A reproduction's jobs in graphile-worker's queue: jobs of up to BATCH_JOB_RUNS consecutive runs of
// its plan (by run index), which a worker claims in groups as it does a batch's (run-task.ts), and
// one that builds the report once every run is recorded. Added and removed within the
// reproduction's own transactions through jobs.ts (graphile-worker's documented add_jobs and
// complete_jobs).
import type { AddJobsJobSpec } from 'graphile-worker';
import { jobMaxAttempts } from './jobs.js';
import { simulationJobFlag } from './names.js';

/** Runs a reproduction's runs; payload ReproductionRunPayload. */
export const reproductionRunTask = 'tcb_lab_reproduction_run';
/** Builds a reproduction's report from its runs' records; payload `{reproduction: <id>}`. */
export const reproductionReportTask = 'tcb_lab_reproduction_report';

export interface ReproductionRunPayload {
  reproduction: string;
  /** Run indices in the plan. */
  runs: number[];
  /**
   * The point of each run (`points[i]` is that of `runs[i]`: variant and point, numbered in run
   * order), whose replications take about as long as each other; absent in the one-run payloads
   * `{reproduction, run}` queued before groups.
   */
  points?: number[];
}

/**
 * The jobs of a reproduction of `total` runs, `replications` to a point: `jobRuns` consecutive
 * runs each.
 */
export function reproductionRunJobSpecs(id: string, total: number, replications: number, jobRuns: number): AddJobsJobSpec[] {
  const specs: AddJobsJobSpec[] = [];
  for (let first = 0; first < total; first += jobRuns) {
    const runs = Array.from({ length: Math.min(jobRuns, total - first) }, (_, k) => first + k);
    const payload: ReproductionRunPayload = { reproduction: id, runs, points: runs.map((run) => Math.floor(run / replications)) };
    specs.push({ identifier: reproductionRunTask, payload, maxAttempts: jobMaxAttempts, flags: [simulationJobFlag] });
  }
  return specs;
}

/** The job that takes over the runs `runs` (with their points) of a reproduction's job. */
export function reproductionRunJobSpec(id: string, runs: number[], points: number[] | undefined): AddJobsJobSpec {
  const payload: ReproductionRunPayload = points ? { reproduction: id, runs, points } : { reproduction: id, runs };
  return { identifier: reproductionRunTask, payload, maxAttempts: jobMaxAttempts, flags: [simulationJobFlag] };
}

export function reproductionReportJobSpec(id: string): AddJobsJobSpec {
  return { identifier: reproductionReportTask, payload: { reproduction: id }, maxAttempts: jobMaxAttempts };
}

function reproductionOf(payload: unknown): string {
  const id = (payload as { reproduction?: unknown } | null)?.reproduction;
  if (typeof id !== 'string') throw new Error(`bad payload ${JSON.stringify(payload)}`);
  return id;
}

const isRunIndex = (n: number) => Number.isInteger(n) && n >= 0;

export function parseReproductionRunPayload(payload: unknown): ReproductionRunPayload {
  const p = payload as { run?: unknown; runs?: unknown; points?: unknown } | null;
  const runs = Array.isArray(p?.runs) ? p.runs.map(Number) : p?.run !== undefined ? [Number(p.run)] : [];
  if (runs.length === 0 || !runs.every(isRunIndex)) throw new Error(`bad payload ${JSON.stringify(payload)}`);
  const reproduction = reproductionOf(payload);
  if (!Array.isArray(p?.points)) return { reproduction, runs };
  const points = p.points.map(Number);
  if (points.length !== runs.length || !points.every(isRunIndex)) throw new Error(`bad payload ${JSON.stringify(payload)}`);
  return { reproduction, runs, points };
}

export function parseReproductionReportPayload(payload: unknown): { reproduction: string } {
  return { reproduction: reproductionOf(payload) };
}
