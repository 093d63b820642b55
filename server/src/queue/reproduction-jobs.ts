// A reproduction's jobs in graphile-worker's queue: jobs of up to BATCH_JOB_RUNS consecutive runs of
// its plan (by run index), which a worker claims in groups as it does a batch's (run-task.ts), and
// one that builds the report once every run is recorded. Added and removed within the
// reproduction's own transactions through jobs.ts (graphile-worker's documented add_jobs and
// complete_jobs).
import type { AddJobsJobSpec } from 'graphile-worker';
import { cutIntoJobs, jobMaxAttempts, parseRunsAndPoints } from './jobs.js';
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
 * runs each, fewer towards the end (cutIntoJobs).
 */
export function reproductionRunJobSpecs(id: string, total: number, replications: number, jobRuns: number): AddJobsJobSpec[] {
  const runs = Array.from({ length: total }, (_, run) => run);
  return cutIntoJobs(runs, jobRuns).map((job) => reproductionRunJobSpec(id, job, job.map((run) => Math.floor(run / replications))));
}

/** The job of the runs `runs` of a reproduction, with their points when known. */
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

export function parseReproductionRunPayload(payload: unknown): ReproductionRunPayload {
  return { reproduction: reproductionOf(payload), ...parseRunsAndPoints(payload) };
}

export function parseReproductionReportPayload(payload: unknown): { reproduction: string } {
  return { reproduction: reproductionOf(payload) };
}
