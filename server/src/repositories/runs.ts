// The runs of a batch as a worker sees them: claiming runs of the job it holds (the attempt counter
// is the token a result is written under), recording results and failures, and handing runs it
// will not get to back to the queue as a job of their own.
//
// Two fences make every run recorded exactly once, however workers die, stall or come back:
// - a run is claimed only through the job it belongs to (`runs.job_id`), and only while that job
//   is locked by the claiming worker pool in the attempt it fetched (graphile-worker's public
//   `jobs` view: `locked_by`, `attempts`), so a worker that was taken for dead and whose job went
//   to another worker cannot claim any more of its runs;
// - a result is written only while the run is still `running` with the attempt claimed, so the
//   result of a claim that another one superseded matches nothing.
import type { Pool } from '../db/pool.js';
import { transaction } from '../db/pool.js';
import { findInSummary } from '@tcb-lab/sim/json-pointer';
import { metricDefinitions, metricNumber } from '../sim/metrics.js';
import { addJobs, jobHeld, runJobSpec, type JobLock } from '../queue/jobs.js';
import type { Trace } from '../schemas/batches.js';

/** What a worker needs to run one run, after claiming it. */
export interface ClaimedRun {
  runId: number;
  batchId: string;
  pointIndex: number;
  attempt: number;
  seed: number;
  trace: Trace;
  /** The point's scenario as JSON text. */
  scenarioText: string;
}

export type RunRecord =
  /**
   * The run's summary as JSON text, stored as it is; `values`, when the engine read them, the
   * summary's values at `recordedValues` (else they are read from the summary here).
   */
  | { status: 'done'; summaryText: string; wallSeconds: number; values?: unknown[] }
  | { status: 'failed'; error: string };

/** A run's result, to be recorded under its claim. */
export interface RunResultEntry {
  run: ClaimedRun;
  record: RunRecord;
}

/**
 * "Not finished", for lookups of a few runs by id: equivalent to status IN ('pending', 'running')
 * under the table's CHECK on status. (Written so while an index of unfinished runs existed, which
 * a generic plan could scan whole to find a group of 32; these lookups go by the primary key.)
 */
const unfinishedById = `status NOT IN ('done', 'failed', 'cancelled')`;

/**
 * What a run's record reads from its summary: the result hash, then the metric columns. A worker
 * asks its engine for these values (tcpsim serve reads them where it prints the summary), so
 * neither it nor PostgreSQL parses the summary it stores.
 */
export const recordedValues: readonly string[] = ['/resultHash', ...metricDefinitions.map((m) => m.pointer)];

/** How many points' scenarios a worker keeps (a batch's runs go point by point). */
const pointCacheSize = 64;

interface PointInfo {
  scenarioText: string;
  trace: Trace;
}

export class RunRepository {
  readonly #pointCache = new Map<string, PointInfo>();

  // The statements a worker runs for every group of runs are named (prepared): each connection
  // parses and plans them once, not at every call.
  constructor(private readonly pool: Pool) {}

  /**
   * Claims those of `runIds` that belong to the job, are not finished and whose batch is not
   * cancelled: marks them running under this worker (each claim increments `attempts`) and returns
   * them in the order asked. `held` is false when the job is no longer this worker's; nothing is
   * claimed then.
   */
  async claim(runIds: number[], lock: JobLock, workerId: string, engine: string): Promise<{ held: boolean; runs: ClaimedRun[] }> {
    // The runs are found by their primary key from the ids given (a group is a few dozen runs of
    // a batch that may have a hundred thousand), the cancellation checked per run.
    const r = await this.pool.query<{ held: boolean; runs: Array<{ id: number; batch_id: string; point_index: number; attempts: number; seed: number }> }>({
      name: 'runs-claim',
      text: `WITH held AS (
         SELECT 1 FROM graphile_worker.jobs WHERE id = $2 AND locked_by = $3 AND attempts = $4
       ), claimed AS (
         UPDATE runs r SET status = 'running', attempts = r.attempts + 1, worker_id = $5, engine = $6, started_at = now()
         FROM unnest($1::bigint[]) AS k(id)
         WHERE r.id = k.id AND r.job_id = $2 AND r.${unfinishedById}
           AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.id = r.batch_id AND b.cancelled_at IS NOT NULL)
           AND EXISTS (SELECT 1 FROM held)
         RETURNING r.id, r.batch_id, r.point_index, r.attempts, r.seed
       )
       SELECT EXISTS (SELECT 1 FROM held) AS held, coalesce((SELECT json_agg(claimed) FROM claimed), '[]') AS runs`,
      values: [runIds, lock.jobId, lock.lockedBy, lock.attempts, workerId, engine],
    });
    const { held, runs } = r.rows[0];
    if (runs.length === 0) return { held, runs: [] };
    const points = await this.#points(runs.map((run) => [run.batch_id, run.point_index]));
    const byId = new Map(runs.map((run) => [Number(run.id), run]));
    const claimed: ClaimedRun[] = [];
    for (const id of runIds) {
      const run = byId.get(id);
      if (!run) continue;
      const point = points.get(`${run.batch_id}/${run.point_index}`)!;
      claimed.push({
        runId: id,
        batchId: run.batch_id,
        pointIndex: run.point_index,
        attempt: run.attempts,
        seed: Number(run.seed),
        trace: point.trace,
        scenarioText: point.scenarioText,
      });
    }
    return { held, runs: claimed };
  }

  /** The points' scenarios and trace levels (immutable once the batch exists), cached. */
  async #points(points: Array<[string, number]>): Promise<Map<string, PointInfo>> {
    const missing = new Map<string, [string, number]>();
    for (const [batch, point] of points) {
      const key = `${batch}/${point}`;
      if (!this.#pointCache.has(key)) missing.set(key, [batch, point]);
    }
    if (missing.size > 0) {
      const rows = await this.pool.query<{ batch_id: string; point_index: number; scenario: string; trace: Trace }>(
        `SELECT p.batch_id, p.point_index, p.scenario::text AS scenario, b.trace
         FROM unnest($1::text[], $2::int[]) AS k(batch_id, point_index)
         JOIN batch_points p USING (batch_id, point_index) JOIN batches b ON b.id = p.batch_id`,
        [[...missing.values()].map(([b]) => b), [...missing.values()].map(([, p]) => p)],
      );
      for (const row of rows.rows) {
        if (this.#pointCache.size >= pointCacheSize) this.#pointCache.delete(this.#pointCache.keys().next().value!);
        this.#pointCache.set(`${row.batch_id}/${row.point_index}`, { scenarioText: row.scenario, trace: row.trace });
      }
    }
    return new Map(points.map(([batch, point]) => [`${batch}/${point}`, this.#pointCache.get(`${batch}/${point}`)!]));
  }

  /**
   * Records finished and failed runs, each only while it is still `running` with the attempt
   * claimed; returns for each whether it was recorded.
   */
  async record(entries: RunResultEntry[]): Promise<boolean[]> {
    // Column by column, as arrays: PostgreSQL reads each value once. The summaries go as one text,
    // a line per row (empty for a failed run), which PostgreSQL splits and stores as they are; the
    // result hash and the metric columns go beside them, as the engine read them from the summary
    // (or, from an engine that did not, as read here).
    const ids: number[] = [];
    const attempts: number[] = [];
    const statuses: string[] = [];
    const errors: Array<string | null> = [];
    const walls: Array<number | null> = [];
    const hashes: Array<string | null> = [];
    const metrics: Array<Array<number | null>> = metricDefinitions.map(() => []);
    const summaries: string[] = [];
    for (const { run, record } of entries) {
      ids.push(run.runId);
      attempts.push(run.attempt);
      statuses.push(record.status);
      if (record.status === 'failed') {
        errors.push(record.error);
        walls.push(null);
        hashes.push(null);
        metrics.forEach((column) => column.push(null));
        summaries.push('');
        continue;
      }
      let text = record.summaryText;
      let values = record.values;
      if (values?.length !== recordedValues.length || text.includes('\n')) {
        const summary = JSON.parse(text) as unknown;
        values = recordedValues.map((pointer) => findInSummary(summary, pointer));
        // A summary printed over several lines (not serve's, which is one line) is stored as one.
        text = JSON.stringify(summary);
      }
      errors.push(null);
      walls.push(Number.isFinite(record.wallSeconds) ? record.wallSeconds : null);
      hashes.push(typeof values[0] === 'string' ? values[0] : null);
      metrics.forEach((column, i) => column.push(metricNumber(values[i + 1])));
      summaries.push(text);
    }
    const metricColumns = metricDefinitions.map((m, i) => `$${8 + i}::float8[]`).join(', ');
    const metricNames = metricDefinitions.map((m) => `m_${m.column}`);
    const sets = metricDefinitions.map((m, i) => `${m.column} = ${m.integer ? `round(v.${metricNames[i]})::bigint` : `v.${metricNames[i]}`}`).join(', ');
    // The run's row, then its summary in run_summaries (written once: a done run is final).
    const r = await this.pool.query<{ id: number }>({
      name: 'runs-record',
      text: `WITH v AS (
         SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::float8[], $6::text[], ${metricColumns})
           WITH ORDINALITY AS v(id, attempt, status, error, wall_seconds, result_hash, ${metricNames.join(', ')}, k)
       ), s AS (
         SELECT k, summary FROM string_to_table($7::text, E'\\n') WITH ORDINALITY AS s(summary, k)
         WHERE summary <> ''
       ), recorded AS (
         UPDATE runs r SET status = v.status, finished_at = now(), error = v.error, wall_seconds = v.wall_seconds,
                result_hash = v.result_hash, ${sets}
         FROM v
         WHERE r.id = v.id AND r.status = 'running' AND r.attempts = v.attempt
         RETURNING r.id, v.k
       ), summaries AS (
         INSERT INTO run_summaries (run_id, summary)
         SELECT recorded.id, s.summary FROM recorded JOIN s USING (k)
         ON CONFLICT (run_id) DO UPDATE SET summary = excluded.summary
       )
       SELECT id FROM recorded`,
      values: [ids, attempts, statuses, errors, walls, hashes, summaries.join('\n'), ...metrics],
    });
    const recorded = new Set(r.rows.map((row) => Number(row.id)));
    return entries.map((e) => recorded.has(e.run.runId));
  }

  /** Those of `runIds` that belong to the job and are not finished. */
  async unfinished(runIds: number[], jobId: number): Promise<number[]> {
    const r = await this.pool.query<{ id: number }>({
      name: 'runs-unfinished',
      text: `SELECT id FROM runs WHERE id = ANY($1::bigint[]) AND job_id = $2 AND ${unfinishedById}`,
      values: [runIds, jobId],
    });
    return r.rows.map((row) => Number(row.id));
  }

  /**
   * Moves the runs of `runIds` that still belong to the job and are not finished to a new job of
   * their own, so that any worker can take them; only while the job is this worker's. Returns the
   * runs moved (none when the job is no longer held).
   */
  async handOff(runIds: number[], lock: JobLock): Promise<number[]> {
    return transaction(this.pool, async (client) => {
      if (!(await jobHeld(client, lock))) return [];
      // Locked here, a run cannot be claimed through the old job meanwhile; once moved, it no longer can.
      const open = await client.query<{ id: number; batch_id: string; point_index: number }>(
        `SELECT id, batch_id, point_index FROM runs WHERE id = ANY($1::bigint[]) AND job_id = $2 AND ${unfinishedById} ORDER BY id FOR UPDATE`,
        [runIds, lock.jobId],
      );
      const ids = open.rows.map((row) => Number(row.id));
      if (ids.length === 0) return [];
      const [job] = await addJobs(client, [runJobSpec(open.rows[0].batch_id, ids, open.rows.map((row) => row.point_index))]);
      await client.query('UPDATE runs SET job_id = $1 WHERE id = ANY($2::bigint[])', [job.id, ids]);
      return ids;
    });
  }
}
