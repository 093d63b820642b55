// One run of a batch as a worker sees it: claiming it (the attempt counter is the token its result
// is written under), recording its result or its failure. A result whose claim is stale (the run
// was cancelled, or claimed again after this worker was taken for dead) is discarded.
import type { Pool } from '../db/pool.js';
import { metricDefinitions, readMetrics } from '../sim/metrics.js';
import type { Trace } from '../schemas/batches.js';

/** What a worker needs to run one run, after claiming it. */
export interface ClaimedRun {
  runId: number;
  batchId: string;
  attempt: number;
  seed: number;
  scenario: Record<string, unknown>;
  trace: Trace;
}

export class RunRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Marks the run as running under this worker and returns what it runs, or null when there is
   * nothing to do (finished, or cancelled). A run left 'running' by a worker that died is claimed
   * again; each claim increments `attempts`, the token the result is written under.
   */
  async claim(runId: number, workerId: string, engine: string): Promise<ClaimedRun | null> {
    const r = await this.pool.query(
      `UPDATE runs r SET status = 'running', attempts = r.attempts + 1, worker_id = $2, engine = $3, started_at = now()
       FROM batches b, batch_points p
       WHERE r.id = $1 AND r.status IN ('pending', 'running')
         AND b.id = r.batch_id AND b.cancelled_at IS NULL
         AND p.batch_id = r.batch_id AND p.point_index = r.point_index
       RETURNING r.batch_id, r.attempts, r.seed, p.scenario, b.trace`,
      [runId, workerId, engine],
    );
    const row = r.rows[0];
    if (!row) return null;
    return { runId, batchId: row.batch_id, attempt: row.attempts, seed: row.seed, scenario: row.scenario, trace: row.trace };
  }

  /** Records a finished run; false when the run was cancelled or claimed again meanwhile. */
  async complete(run: ClaimedRun, summary: Record<string, unknown>, wallSeconds: number): Promise<boolean> {
    const metrics = readMetrics(summary);
    const sets = metricDefinitions.map((m, i) => `${m.column} = $${i + 6}`).join(', ');
    const r = await this.pool.query(
      `UPDATE runs SET status = 'done', finished_at = now(), error = NULL, summary = $3, result_hash = $4, wall_seconds = $5, ${sets}
       WHERE id = $1 AND status = 'running' AND attempts = $2`,
      [
        run.runId,
        run.attempt,
        summary,
        typeof summary.resultHash === 'string' ? summary.resultHash : null,
        Number.isFinite(wallSeconds) ? wallSeconds : null,
        ...metricDefinitions.map((m) => (m.integer && metrics[m.name] !== null ? Math.round(metrics[m.name]!) : metrics[m.name])),
      ],
    );
    return r.rowCount === 1;
  }

  async fail(run: ClaimedRun, error: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE runs SET status = 'failed', finished_at = now(), error = $3 WHERE id = $1 AND status = 'running' AND attempts = $2`,
      [run.runId, run.attempt, error],
    );
    return r.rowCount === 1;
  }
}
