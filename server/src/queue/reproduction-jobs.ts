// A reproduction's jobs in graphile-worker's queue: one per run of its plan (by run index), and one
// that builds the report once every run is recorded. Added and removed within the reproduction's
// own transactions through jobs.ts (graphile-worker's documented add_jobs and complete_jobs).
import type { AddJobsJobSpec } from 'graphile-worker';
import { jobMaxAttempts } from './jobs.js';
import { simulationJobFlag } from './names.js';

/** Runs one run of a reproduction; payload `{reproduction: <id>, run: <run index>}`. */
export const reproductionRunTask = 'tcb_lab_reproduction_run';
/** Builds a reproduction's report from its runs' records; payload `{reproduction: <id>}`. */
export const reproductionReportTask = 'tcb_lab_reproduction_report';

export interface ReproductionRunPayload {
  reproduction: string;
  run: number;
}

export function reproductionRunJobSpec(id: string, run: number): AddJobsJobSpec {
  return { identifier: reproductionRunTask, payload: { reproduction: id, run } satisfies ReproductionRunPayload, maxAttempts: jobMaxAttempts, flags: [simulationJobFlag] };
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
  const run = Number((payload as { run?: unknown } | null)?.run);
  if (!Number.isInteger(run) || run < 0) throw new Error(`bad payload ${JSON.stringify(payload)}`);
  return { reproduction: reproductionOf(payload), run };
}

export function parseReproductionReportPayload(payload: unknown): { reproduction: string } {
  return { reproduction: reproductionOf(payload) };
}
