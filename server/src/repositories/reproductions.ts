// Reproductions in PostgreSQL: creating one with a row per run of its plan and its queue jobs (of up
// to BATCH_JOB_RUNS consecutive runs) in one transaction; a worker's claim of a job's runs, their
// records or a failure, and the hand-back of the runs it will not get to; the report stored once;
// reading status and counts; cancelling. As for batches, the status is derived from the runs when
// read, a run is claimed only through the job it belongs to while that job is the claiming
// worker's, and `attempts` fences each run's record, so a run retried after its worker died is
// recorded exactly once (the fences of repositories/runs.ts). The worker that records the last run
// queues the report's job in the same transaction, so the report is built once whatever order the
// runs finish in.
import type { Pool } from '../db/pool.js';
import { transaction } from '../db/pool.js';
import { newId } from '../ids.js';
import { readRunCounts, reproductionRuns } from './run-counts.js';
import { addJobs, jobHeld, type JobLock } from '../queue/jobs.js';
import { cancelOwner, stopOpenRuns } from './cancel-runs.js';
import { parseReproductionRunPayload, reproductionReportJobSpec, reproductionRunJobSpec, reproductionRunJobSpecs } from '../queue/reproduction-jobs.js';
import type { RunCounts } from '../schemas/batches.js';
import type { Reproduction, ReproductionMode, ReproductionStatus } from '../schemas/reproductions.js';
import type { RunRecord } from '../sim/experiment-engine.js';

/** A reproduction as stored; the API adds its url and parses the report. */
export type ReproductionView = Omit<Reproduction, 'url' | 'report'> & { reportJson: string | null };

export interface NewReproduction {
  experiment: string;
  title: string;
  /** The validated experiment document's JSON text, which the workers expand. */
  source: string;
  mode: ReproductionMode;
  runs: number;
  /** Replications of each variant and point (the plan's): consecutive runs of a point. */
  replications: number;
  /** Who asked (the client's address), and what the runs cost in work units (sim/cost.ts). */
  client: string;
  cost: number;
}

/** A run's record, to be stored under its claim. */
export interface CompletedRun {
  run: ClaimedReproductionRun;
  record: RunRecord;
  wallSeconds: number;
}

/** What a worker needs to run one run, after claiming it. */
export interface ClaimedReproductionRun {
  reproductionId: string;
  index: number;
  attempt: number;
  source: string;
  mode: ReproductionMode;
}

/**
 * A record's metric values as a PostgreSQL float8[] literal. Doubles are written in JavaScript's
 * shortest round-trip form and read back by PostgreSQL's (both exact), -0 included, so that the
 * report built from the stored records is the one built from the runs' own.
 */
function float8Array(values: (number | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : Object.is(v, -0) ? '-0' : String(v))).join(',')}}`;
}

function deriveStatus(cancelled: boolean, c: RunCounts, report: boolean, reportError: boolean): ReproductionStatus {
  if (cancelled) return 'cancelled';
  if (c.failed > 0 || reportError) return 'failed';
  if (c.pending > 0) return c.running > 0 || c.done > 0 ? 'running' : 'queued';
  return report ? 'completed' : 'reporting';
}

export class ReproductionRepository {
  /**
   * @param jobRuns consecutive runs queued as one job (BATCH_JOB_RUNS), which a worker claims in
   *   groups while they are short and hands back when they are not (queue/run-task.ts)
   */
  constructor(
    private readonly pool: Pool,
    private readonly jobRuns = 32,
  ) {}

  async create(r: NewReproduction): Promise<string> {
    return transaction(this.pool, async (client) => {
      const id = newId();
      await client.query(
        `INSERT INTO reproductions (id, experiment, title, source, mode, total_runs, client, cost) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, r.experiment, r.title, r.source, r.mode, r.runs, r.client, r.cost],
      );
      await client.query(
        `INSERT INTO reproduction_runs (reproduction_id, run_index) SELECT $1, i FROM generate_series(0, $2::int - 1) AS i`,
        [id, r.runs],
      );
      // Its jobs, in this transaction: a reproduction is queued entirely or not at all.
      const jobs = await addJobs(client, reproductionRunJobSpecs(id, r.runs, r.replications, this.jobRuns));
      // Each run belongs to the job whose payload lists it (add_jobs need not answer in order).
      const runJob = jobs.flatMap((job) => parseReproductionRunPayload(job.payload).runs.map((run) => [run, job.id]));
      await client.query(
        `UPDATE reproduction_runs SET job_id = j.job_id
         FROM unnest($2::int[], $3::bigint[]) AS j(run_index, job_id)
         WHERE reproduction_id = $1 AND reproduction_runs.run_index = j.run_index`,
        [id, runJob.map(([run]) => run), runJob.map(([, job]) => job)],
      );
      return id;
    });
  }

  async get(id: string): Promise<ReproductionView | null> {
    const r = await this.pool.query<{
      id: string;
      experiment: string;
      title: string;
      mode: ReproductionMode;
      total_runs: number;
      created_at: Date;
      cancelled_at: Date | null;
      finished_at: Date | null;
      report_json: string | null;
      report_error: string | null;
    }>(
      `SELECT id, experiment, title, mode, total_runs, created_at, cancelled_at, finished_at, report_json, report_error
       FROM reproductions WHERE id = $1`,
      [id],
    );
    const row = r.rows[0];
    if (!row) return null;
    const { counts, lastFinished } = await readRunCounts(this.pool, reproductionRuns, id, row.total_runs);
    const status = deriveStatus(row.cancelled_at !== null, counts, row.report_json !== null, row.report_error !== null);
    let error: string | null = row.report_error;
    if (counts.failed > 0) {
      const failed = await this.pool.query<{ run_index: number; error: string | null }>(
        `SELECT run_index, error FROM reproduction_runs WHERE reproduction_id = $1 AND status = 'failed' ORDER BY run_index LIMIT 1`,
        [id],
      );
      const f = failed.rows[0];
      if (f) error = `run ${f.run_index}: ${f.error ?? 'failed'}`;
    }
    const finishedAt =
      status === 'cancelled' ? row.cancelled_at : status === 'completed' ? row.finished_at : status === 'failed' ? (row.finished_at ?? lastFinished) : null;
    return {
      id: row.id,
      experiment: row.experiment,
      title: row.title,
      mode: row.mode,
      status,
      createdAt: row.created_at.toISOString(),
      finishedAt: finishedAt ? finishedAt.toISOString() : null,
      counts,
      error,
      reportJson: row.report_json,
    };
  }

  /** The stored report: its JSON text, or its tables; null when there is no such reproduction, undefined while there is no report. */
  async report(id: string, format: 'json' | 'text'): Promise<string | null | undefined> {
    const r = await this.pool.query<{ report_json: string | null; report_text: string | null }>(
      'SELECT report_json, report_text FROM reproductions WHERE id = $1',
      [id],
    );
    const row = r.rows[0];
    if (!row) return null;
    return (format === 'json' ? row.report_json : row.report_text) ?? undefined;
  }

  /** Cancels the unfinished runs and removes their queued jobs; 'finished' when nothing was left to cancel. */
  async cancel(id: string): Promise<'cancelled' | 'finished' | 'missing'> {
    return transaction(this.pool, (client) => cancelOwner(client, reproductionRuns, id));
  }

  /**
   * Claims those of the runs `indices` of reproduction `id` that belong to the job, are not
   * finished and whose reproduction is not cancelled: marks them running under this worker (each
   * claim increments `attempts`, the token the record is written under) and returns them in the
   * order asked, with what they run. `held` is false when the job is no longer this worker's;
   * nothing is claimed then.
   */
  async claim(id: string, indices: number[], lock: JobLock, workerId: string, engine: string): Promise<{ held: boolean; runs: ClaimedReproductionRun[] }> {
    const r = await this.pool.query<{ held: boolean; runs: Array<{ run_index: number; attempts: number }>; source: string; mode: ReproductionMode }>(
      `WITH held AS (
         SELECT 1 FROM graphile_worker.jobs WHERE id = $3 AND locked_by = $4 AND attempts = $5
       ), claimed AS (
         UPDATE reproduction_runs r SET status = 'running', attempts = r.attempts + 1, worker_id = $6, engine = $7, started_at = now()
         FROM reproductions p
         WHERE r.reproduction_id = $1 AND r.run_index = ANY($2::int[]) AND r.job_id = $3 AND r.status IN ('pending', 'running')
           AND p.id = r.reproduction_id AND p.cancelled_at IS NULL AND EXISTS (SELECT 1 FROM held)
         RETURNING r.run_index, r.attempts
       )
       SELECT EXISTS (SELECT 1 FROM held) AS held, coalesce((SELECT json_agg(claimed) FROM claimed), '[]') AS runs,
              p.source, p.mode
       FROM reproductions p WHERE p.id = $1`,
      [id, indices, lock.jobId, lock.lockedBy, lock.attempts, workerId, engine],
    );
    const row = r.rows[0];
    if (!row) return { held: false, runs: [] };
    const attempts = new Map(row.runs.map((run) => [run.run_index, run.attempts]));
    return {
      held: row.held,
      runs: indices.flatMap((index) => {
        const attempt = attempts.get(index);
        return attempt === undefined ? [] : [{ reproductionId: id, index, attempt, source: row.source, mode: row.mode }];
      }),
    };
  }

  /** Those of the runs `indices` of reproduction `id` that belong to the job and are not finished. */
  async unfinished(id: string, indices: number[], jobId: number): Promise<number[]> {
    const r = await this.pool.query<{ run_index: number }>(
      `SELECT run_index FROM reproduction_runs
       WHERE reproduction_id = $1 AND run_index = ANY($2::int[]) AND job_id = $3 AND status IN ('pending', 'running')`,
      [id, indices, jobId],
    );
    return r.rows.map((row) => row.run_index);
  }

  /**
   * Moves those of the runs `indices` of reproduction `id` that still belong to the job and are not
   * finished to a new job of their own, so that any worker can take them; only while the job is
   * this worker's. `pointOf` gives a run's point for the new job's payload.
   */
  async handOff(id: string, indices: number[], lock: JobLock, pointOf?: (index: number) => number): Promise<number[]> {
    return transaction(this.pool, async (client) => {
      if (!(await jobHeld(client, lock))) return [];
      // Locked here, a run cannot be claimed through the old job meanwhile; once moved, it no longer can.
      const open = await client.query<{ run_index: number }>(
        `SELECT run_index FROM reproduction_runs
         WHERE reproduction_id = $1 AND run_index = ANY($2::int[]) AND job_id = $3 AND status IN ('pending', 'running')
         ORDER BY run_index FOR UPDATE`,
        [id, indices, lock.jobId],
      );
      const moved = open.rows.map((row) => row.run_index);
      if (moved.length === 0) return [];
      const [job] = await addJobs(client, [reproductionRunJobSpec(id, moved, pointOf && moved.map(pointOf))]);
      await client.query('UPDATE reproduction_runs SET job_id = $3 WHERE reproduction_id = $1 AND run_index = ANY($2::int[])', [id, moved, job.id]);
      return moved;
    });
  }

  /**
   * Records runs, each only while it is still running under the attempt claimed (false: it was
   * cancelled or claimed again meanwhile). The reproductions' rows are locked first, so that of two
   * workers recording the last runs exactly one sees every run recorded and queues the report's
   * job.
   */
  async completeMany(entries: CompletedRun[]): Promise<boolean[]> {
    if (entries.length === 0) return [];
    return transaction(this.pool, async (client) => {
      const ids = [...new Set(entries.map((e) => e.run.reproductionId))].sort();
      const owners = await client.query<{ id: string; report_job_id: number | null }>(
        'SELECT id, report_job_id FROM reproductions WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
        [ids],
      );
      // Column by column, as arrays; each record's metrics as a float8[] literal (float8Array).
      const r = await client.query<{ reproduction_id: string; run_index: number }>(
        `UPDATE reproduction_runs r SET status = 'done', finished_at = now(), error = NULL, metrics = v.metrics::float8[],
                result_hash = v.result_hash, wall_seconds = v.wall_seconds
         FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::float8[])
           AS v(reproduction_id, run_index, attempt, metrics, result_hash, wall_seconds)
         WHERE r.reproduction_id = v.reproduction_id AND r.run_index = v.run_index AND r.status = 'running' AND r.attempts = v.attempt
         RETURNING r.reproduction_id, r.run_index`,
        [
          entries.map((e) => e.run.reproductionId),
          entries.map((e) => e.run.index),
          entries.map((e) => e.run.attempt),
          entries.map((e) => float8Array(e.record.metrics)),
          entries.map((e) => e.record.resultHash),
          entries.map((e) => (Number.isFinite(e.wallSeconds) ? e.wallSeconds : null)),
        ],
      );
      const recorded = new Set(r.rows.map((row) => `${row.reproduction_id}/${row.run_index}`));
      for (const owner of owners.rows) {
        if (owner.report_job_id !== null || !r.rows.some((row) => row.reproduction_id === owner.id)) continue;
        // "Not done", as the statuses that are not (under the table's CHECK): probes of the status
        // index instead of a walk over the runs already done, which made recording a
        // reproduction's runs quadratic in their number.
        const open = await client.query(
          `SELECT 1 FROM reproduction_runs WHERE reproduction_id = $1 AND status IN ('pending', 'running', 'failed', 'cancelled') LIMIT 1`,
          [owner.id],
        );
        if (open.rowCount === 0) {
          const [job] = await addJobs(client, [reproductionReportJobSpec(owner.id)]);
          await client.query('UPDATE reproductions SET report_job_id = $2 WHERE id = $1', [owner.id, job.id]);
        }
      }
      return entries.map((e) => recorded.has(`${e.run.reproductionId}/${e.run.index}`));
    });
  }

  /**
   * Fails a run, and with it the reproduction: its report needs every run (as `tcpsim reproduce`
   * stops at the first failure), so the runs still open are stopped.
   */
  async fail(run: ClaimedReproductionRun, error: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM reproductions WHERE id = $1 FOR UPDATE', [run.reproductionId]);
      const r = await client.query(
        `UPDATE reproduction_runs SET status = 'failed', finished_at = now(), error = $4
         WHERE reproduction_id = $1 AND run_index = $2 AND status = 'running' AND attempts = $3`,
        [run.reproductionId, run.index, run.attempt, error],
      );
      if (r.rowCount !== 1) return false;
      await stopOpenRuns(client, reproductionRuns, run.reproductionId);
      return true;
    });
  }

  /** Every run's record in run order, when every run is recorded and no report is stored yet; else null. */
  async recordsForReport(id: string): Promise<{ source: string; mode: ReproductionMode; records: RunRecord[] } | null> {
    const p = await this.pool.query<{ source: string; mode: ReproductionMode; report_json: string | null; total_runs: number }>(
      'SELECT source, mode, report_json, total_runs FROM reproductions WHERE id = $1',
      [id],
    );
    const row = p.rows[0];
    if (!row || row.report_json !== null) return null;
    const runs = await this.pool.query<{ status: string; metrics: (number | null)[] | null; result_hash: string | null }>(
      'SELECT status, metrics, result_hash FROM reproduction_runs WHERE reproduction_id = $1 ORDER BY run_index',
      [id],
    );
    if (runs.rows.length !== row.total_runs || runs.rows.some((r) => r.status !== 'done')) return null;
    return {
      source: row.source,
      mode: row.mode,
      records: runs.rows.map((r) => ({ metrics: r.metrics ?? [], resultHash: r.result_hash ?? '' })),
    };
  }

  /** Stores the report once; a second builder's copy (the same report) is dropped. */
  async storeReport(id: string, json: string, text: string): Promise<void> {
    await this.pool.query(
      'UPDATE reproductions SET report_json = $2, report_text = $3, report_error = NULL, finished_at = now() WHERE id = $1 AND report_json IS NULL',
      [id, json, text],
    );
  }

  async storeReportError(id: string, error: string): Promise<void> {
    await this.pool.query('UPDATE reproductions SET report_error = $2, finished_at = now() WHERE id = $1 AND report_json IS NULL', [id, error]);
  }
}
