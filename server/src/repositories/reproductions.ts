// Reproductions in PostgreSQL: creating one with a row and a queue job per run of its plan in one
// transaction; a worker's claim of a run, its record or its failure; the report stored once; reading
// status and counts; cancelling. As for batches, the status is derived from the runs when read,
// and `attempts` fences each run's record, so a run retried after its worker died is recorded
// exactly once. The worker that records the last run queues the report's job in the same
// transaction, so the report is built once whatever order the runs finish in.
import type { Pool } from '../db/pool.js';
import { transaction } from '../db/pool.js';
import { newId } from '../ids.js';
import { readRunCounts, reproductionRuns } from './run-counts.js';
import { addJobs } from '../queue/jobs.js';
import { cancelOwner, stopOpenRuns } from './cancel-runs.js';
import { reproductionReportJobSpec, reproductionRunJobSpec } from '../queue/reproduction-jobs.js';
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
  constructor(private readonly pool: Pool) {}

  async create(r: NewReproduction): Promise<string> {
    return transaction(this.pool, async (client) => {
      const id = newId();
      await client.query(
        `INSERT INTO reproductions (id, experiment, title, source, mode, total_runs) VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, r.experiment, r.title, r.source, r.mode, r.runs],
      );
      await client.query(
        `INSERT INTO reproduction_runs (reproduction_id, run_index) SELECT $1, i FROM generate_series(0, $2::int - 1) AS i`,
        [id, r.runs],
      );
      // One job per run, in this transaction: a reproduction is queued entirely or not at all.
      const jobs = await addJobs(client, Array.from({ length: r.runs }, (_, i) => reproductionRunJobSpec(id, i)));
      await client.query(
        `UPDATE reproduction_runs SET job_id = j.job_id
         FROM unnest($2::int[], $3::bigint[]) AS j(run_index, job_id)
         WHERE reproduction_id = $1 AND reproduction_runs.run_index = j.run_index`,
        [id, jobs.map((j) => (j.payload as { run: number }).run), jobs.map((j) => j.id)],
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
   * Marks the run as running under this worker and returns what it runs, or null when there is
   * nothing to do (recorded, failed, or its reproduction cancelled). Each claim increments
   * `attempts`, the token the record is written under.
   */
  async claim(id: string, index: number, workerId: string, engine: string): Promise<ClaimedReproductionRun | null> {
    const r = await this.pool.query<{ attempts: number; source: string; mode: ReproductionMode }>(
      `UPDATE reproduction_runs r SET status = 'running', attempts = r.attempts + 1, worker_id = $3, engine = $4, started_at = now()
       FROM reproductions p
       WHERE r.reproduction_id = $1 AND r.run_index = $2 AND r.status IN ('pending', 'running')
         AND p.id = r.reproduction_id AND p.cancelled_at IS NULL
       RETURNING r.attempts, p.source, p.mode`,
      [id, index, workerId, engine],
    );
    const row = r.rows[0];
    return row ? { reproductionId: id, index, attempt: row.attempts, source: row.source, mode: row.mode } : null;
  }

  /**
   * Records a run; false when it was cancelled or claimed again meanwhile. The reproduction's row is
   * locked first, so that of two workers recording the last two runs exactly one sees every run
   * recorded and queues the report's job.
   */
  async complete(run: ClaimedReproductionRun, record: RunRecord, wallSeconds: number): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      const p = await client.query<{ report_job_id: number | null }>('SELECT report_job_id FROM reproductions WHERE id = $1 FOR UPDATE', [run.reproductionId]);
      const r = await client.query(
        `UPDATE reproduction_runs SET status = 'done', finished_at = now(), error = NULL, metrics = $4::float8[], result_hash = $5, wall_seconds = $6
         WHERE reproduction_id = $1 AND run_index = $2 AND status = 'running' AND attempts = $3`,
        [run.reproductionId, run.index, run.attempt, float8Array(record.metrics), record.resultHash, Number.isFinite(wallSeconds) ? wallSeconds : null],
      );
      if (r.rowCount !== 1) return false;
      if (p.rows[0]?.report_job_id === null) {
        const open = await client.query(`SELECT 1 FROM reproduction_runs WHERE reproduction_id = $1 AND status <> 'done' LIMIT 1`, [run.reproductionId]);
        if (open.rowCount === 0) {
          const [job] = await addJobs(client, [reproductionReportJobSpec(run.reproductionId)]);
          await client.query('UPDATE reproductions SET report_job_id = $2 WHERE id = $1', [run.reproductionId, job.id]);
        }
      }
      return true;
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
