// The batch queue's jobs, through graphile-worker's documented SQL interface. A batch's jobs are
// added, and a cancelled batch's jobs completed, in the same transaction as the batch's own rows,
// which WorkerUtils (it takes a connection of its own) cannot do; so the specs are graphile-worker's
// public `AddJobsJobSpec`s, passed to `add_jobs` by field name as WorkerUtils.addJobs passes them,
// never by position, and jobs are only ever read through the public `graphile_worker.jobs` view.
import type { AddJobsJobSpec } from 'graphile-worker';
import type { Pool, PoolClient } from '../db/pool.js';
import { runTask, simulationJobFlag } from './names.js';

/** The job a task holds, as graphile-worker fetched it. */
export interface JobLock {
  jobId: number;
  /** The worker pool's id the job is locked with. */
  lockedBy: string;
  /** The job's attempt (graphile-worker increments it at every fetch). */
  attempts: number;
}

/**
 * Whether the job is still locked by the worker pool that fetched it, in the attempt it fetched:
 * not when the worker was taken for dead and the job went back to the queue (or to another worker).
 */
export async function jobHeld(db: Pool | PoolClient, lock: JobLock): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM graphile_worker.jobs WHERE id = $1 AND locked_by = $2 AND attempts = $3', [lock.jobId, lock.lockedBy, lock.attempts]);
  return r.rowCount === 1;
}

/** How many times a job may be tried (worker deaths and database errors); the run itself fails after maxRunAttempts. */
export const jobMaxAttempts = 10;

/**
 * The payload of a job: consecutive runs of a batch (a grid point's replications, then the next
 * point's), which one worker claims in groups while they are short (queue/run-task.ts). Each run
 * belongs to one job at a time (`runs.job_id`).
 */
export interface RunJobPayload {
  /** The runs' batch; absent in the one-run payloads queued before groups. */
  batch?: string;
  /** The grid point of each run (`points[i]` is that of `runs[i]`), when the batch is given. */
  points?: number[];
  runs: number[];
}

/**
 * How `total` consecutive runs (a batch's, a reproduction's) are cut into jobs: `jobRuns` runs
 * each (BATCH_JOB_RUNS), except towards the end, where each job takes an eighth of the runs not yet
 * in a job (at least an eighth of `jobRuns`). A worker runs a job's runs itself, so the fleet's
 * last jobs decide how far apart its workers finish: with equal jobs, one worker may start a whole
 * job as the others run out of work (on two workers, a 1000-run batch of 3 ms runs ended some 50 ms
 * later on one than on the other, 3% of the batch). Jobs that shrink as the work left shrinks are
 * guided self-scheduling's (Polychronopoulos and Kuck, "Guided Self-Scheduling: A Practical
 * Scheduling Scheme for Parallel Supercomputers", IEEE Trans. Computers 36(12), 1987: each chunk is
 * the work left over the number of processors), here for a fleet of up to about eight workers,
 * whose size the queue does not know.
 */
export function jobSizes(total: number, jobRuns: number): number[] {
  const smallest = Math.max(1, Math.ceil(jobRuns / taperDivisor));
  const sizes: number[] = [];
  for (let left = total; left > 0; ) {
    const size = Math.min(left, jobRuns, Math.max(smallest, Math.ceil(left / taperDivisor)));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}
const taperDivisor = 8;

/** `items` cut as jobSizes cuts `items.length` runs. */
export function cutIntoJobs<T>(items: readonly T[], jobRuns: number): T[][] {
  let first = 0;
  return jobSizes(items.length, jobRuns).map((size) => items.slice(first, (first += size)));
}

export function runJobSpec(batchId: string, runIds: number[], points: number[]): AddJobsJobSpec {
  if (points.length !== runIds.length) throw new Error(`${runIds.length} runs with ${points.length} points`);
  return { identifier: runTask, payload: { batch: batchId, points, runs: runIds } satisfies RunJobPayload, maxAttempts: jobMaxAttempts, flags: [simulationJobFlag] };
}

/** add_jobs' job_spec, by the names of its fields. */
function jobSpecRow(spec: AddJobsJobSpec) {
  return {
    identifier: spec.identifier,
    payload: spec.payload,
    queue_name: spec.queueName ?? null,
    run_at: spec.runAt?.toISOString() ?? null,
    max_attempts: spec.maxAttempts ?? null,
    job_key: spec.jobKey ?? null,
    priority: spec.priority ?? null,
    flags: spec.flags ?? null,
  };
}

/**
 * Adds the jobs within the client's transaction, to run in the order given; returns each job's id
 * with its payload, in no particular order. graphile-worker takes jobs of equal priority by
 * run_at, and add_jobs stamps every job it adds with now() and inserts them in whatever order its
 * join yields them (reversed, for a handful); so each job without a run_at of its own is due one
 * microsecond after the one before it, the last at now().
 */
export async function addJobs(client: PoolClient, specs: AddJobsJobSpec[]): Promise<{ id: number; payload: unknown }[]> {
  if (specs.length === 0) return [];
  const r = await client.query<{ id: number; payload: unknown }>(
    `SELECT id, payload FROM graphile_worker.add_jobs(ARRAY(
       SELECT json_populate_record(json_populate_record(NULL::graphile_worker.job_spec, s.spec), json_build_object('run_at',
                coalesce((s.spec->>'run_at')::timestamptz, now() - ($2::int - s.k) * interval '1 microsecond')))
       FROM json_array_elements($1::json) WITH ORDINALITY AS s(spec, k)
       ORDER BY s.k))`,
    [JSON.stringify(specs.map(jobSpecRow)), specs.length],
  );
  if (r.rows.length !== specs.length) throw new Error(`add_jobs returned ${r.rows.length} jobs for ${specs.length} specs`);
  return r.rows;
}

/** Completes (deletes) the jobs that are not locked, within the client's transaction. */
export async function completeJobs(client: PoolClient, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await client.query('SELECT id FROM graphile_worker.complete_jobs($1::bigint[])', [ids]);
  return r.rowCount ?? 0;
}

/**
 * The run list of a job's payload, checked: `runs` (or the one `run` of payloads queued before
 * groups) and, when given, `points`, one per run. Run ids and indices, and points, are integers
 * from 0.
 */
export function parseRunsAndPoints(payload: unknown): { runs: number[]; points?: number[] } {
  const p = payload as { run?: unknown; runs?: unknown; points?: unknown } | null;
  const isIndex = (n: number) => Number.isSafeInteger(n) && n >= 0;
  const runs = Array.isArray(p?.runs) ? p.runs.map(Number) : p?.run !== undefined ? [Number(p.run)] : [];
  if (runs.length === 0 || !runs.every(isIndex)) throw new Error(`bad payload ${JSON.stringify(payload)}`);
  if (!Array.isArray(p?.points)) return { runs };
  const points = p.points.map(Number);
  if (points.length !== runs.length || !points.every(isIndex)) throw new Error(`bad payload ${JSON.stringify(payload)}`);
  return { runs, points };
}

/**
 * A job's payload as the task receives it, checked. Earlier servers queued `{batch, point, runs}`
 * (runs of one point) and `{run}` (one run); a queue may still hold those.
 */
export function parseRunJobPayload(payload: unknown): RunJobPayload {
  const { runs, points } = parseRunsAndPoints(payload);
  const p = payload as { batch?: unknown; point?: unknown };
  if (typeof p.batch !== 'string') return { runs };
  if (points) return { batch: p.batch, points, runs };
  return Number.isInteger(p.point) ? { batch: p.batch, points: runs.map(() => p.point as number), runs } : { runs };
}
