// Batches in PostgreSQL: creating one with its points, runs and queue jobs in one transaction,
// reading its status, counts and per-point statistics (computed by PostgreSQL), streaming its
// per-run results, and cancelling it. A batch's status is derived from its runs' statuses when it
// is read (only cancellation is stored), so concurrent workers never race to mark a batch finished.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import type { Pool } from '../db/pool.js';
import { integerArray, transaction } from '../db/pool.js';
import { newId } from '../ids.js';
import { batchRuns, readRunCounts } from './run-counts.js';
import { metricDefinitions } from '../sim/metrics.js';
import type { Plan } from '../sim/batch.js';
import { addJobs, cutIntoJobs, parseRunJobPayload, runJobSpec } from '../queue/jobs.js';
import { cancelOwner } from './cancel-runs.js';
import type { Batch, BatchStatus, RunCounts, RunResult, RunStatus, Trace } from '../schemas/batches.js';

/**
 * A batch's points in order, each with the count, mean and sample sd of each metric over its done
 * runs (`runs`, `n<i>`, `mean<i>`, `sd<i>`, and `same<i>`: whether its values are all equal, for
 * metricDefinitions[i]); $1 is the batch.
 *
 * Each point's runs are aggregated on their own, found by the index of (batch_id, point_index,
 * replication), so the statement reads every run of the batch once whatever the planner believes.
 * Joined to an aggregate of the whole batch grouped by point instead, it was planned from the
 * statistics of the tables, in which a batch just submitted is not yet: estimating one point and
 * one run, the planner took a nested loop that aggregated the whole batch again for each point, a
 * thousand passes over a thousand runs for a sweep of 1000 points (0.4-0.5 s instead of a few ms,
 * at every computation of a running sweep's view, until autovacuum analysed the tables).
 */
export const pointStatisticsSql = `SELECT p.point_index, p.params, a.*
  FROM batch_points p
  LEFT JOIN LATERAL (
    SELECT count(*) AS runs, ${metricDefinitions
      .map((m, i) => `count(r.${m.column}) AS n${i}, avg(r.${m.column})::float8 AS mean${i}, stddev_samp(r.${m.column})::float8 AS sd${i}, min(r.${m.column}) = max(r.${m.column}) AS same${i}`)
      .join(', ')}
    FROM runs r WHERE r.batch_id = p.batch_id AND r.point_index = p.point_index AND r.status = 'done'
  ) AS a ON true
  WHERE p.batch_id = $1
  ORDER BY p.point_index`;

/** A batch as stored; the API adds its url and the metric definitions. */
export type BatchView = Omit<Batch, 'url' | 'metrics'>;
export type BatchPoint = BatchView['points'][number];

export interface NewBatch {
  title: string | null;
  scenario: Record<string, unknown>;
  grid: Record<string, unknown[]>;
  replications: number;
  trace: Trace;
  idempotencyKey: string | null;
  /** Who asked (the client's address), and what the runs cost in work units (sim/cost.ts). */
  client: string;
  cost: number;
}

export type CreateOutcome = { kind: 'created'; id: string; runs: number } | { kind: 'existing'; id: string; runs: number } | { kind: 'conflict' };

function requestHash(batch: NewBatch): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  };
  const body = { title: batch.title, scenario: batch.scenario, grid: batch.grid, pointers: Object.keys(batch.grid), replications: batch.replications, trace: batch.trace };
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('hex');
}

function deriveStatus(cancelled: boolean, c: RunCounts): BatchStatus {
  if (cancelled) return 'cancelled';
  if (c.pending > 0) return c.running > 0 || c.done + c.failed > 0 ? 'running' : 'queued';
  return c.done === 0 && c.failed > 0 ? 'failed' : 'completed';
}

/** A batch's per-run results as the database streams them, row by row. */
export interface ResultRow {
  point_index: number;
  params: Record<string, unknown>;
  replication: number;
  seed: number;
  status: RunStatus;
  result_hash: string | null;
  error: string | null;
  /** The run's summary as the simulator printed it (JSON text), when asked for. */
  summary?: string | null;
  [column: string]: unknown;
}

/**
 * Rows fetched from the cursor at a time while streaming results: few with summaries (a summary at
 * trace level "summary" holds every flow's record: tens of kB, and more for scenarios with many
 * flows), more without (a row is some 200 bytes). The next rows are fetched only when the client
 * has taken these (the response stream's backpressure).
 */
const resultsBatchRows = { plain: 200, withSummary: 8 };

export class BatchRepository {
  /**
   * @param jobRuns consecutive runs queued as one job (BATCH_JOB_RUNS): a worker claims a job's
   * runs in groups while they are short and hands back those it cannot finish soon.
   */
  constructor(
    private readonly pool: Pool,
    private readonly jobRuns = 32,
  ) {}

  async create(batch: NewBatch, plan: Plan): Promise<CreateOutcome> {
    const hash = requestHash(batch);
    const total = plan.points.length * batch.replications;
    return transaction(this.pool, async (client) => {
      const id = newId();
      const inserted = await client.query(
        `INSERT INTO batches (id, title, scenario, grid, pointers, replications, trace, total_runs, idempotency_key, request_hash, client, cost)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id`,
        [id, batch.title, batch.scenario, JSON.stringify(batch.grid), plan.pointers, batch.replications, batch.trace, total, batch.idempotencyKey, hash, batch.client, batch.cost],
      );
      if (inserted.rowCount === 0) {
        const existing = await client.query<{ id: string; request_hash: string; total_runs: number }>(
          'SELECT id, request_hash, total_runs FROM batches WHERE idempotency_key = $1',
          [batch.idempotencyKey],
        );
        const row = existing.rows[0];
        return row.request_hash === hash ? { kind: 'existing', id: row.id, runs: row.total_runs } : { kind: 'conflict' };
      }
      await client.query(
        `INSERT INTO batch_points (batch_id, point_index, params, scenario)
         SELECT $1, p.ordinality - 1, p.value->'params', p.value->'scenario'
         FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS p`,
        [id, JSON.stringify(plan.points.map((p) => ({ params: p.params, scenario: p.scenario })))],
      );
      // Run ids come from the sequence first, so that each run is written once, with its job: one
      // graphile-worker job per `jobRuns` consecutive runs of the batch, fewer towards its end
      // (cutIntoJobs; a point's replications, then the next point's: a sweep of many points with
      // few replications each still queues few jobs; the task claims them by each point's expected
      // run time), added in this transaction: a batch is queued entirely or not at all.
      // (As one text, not a row per run: rows of a large batch take the event loop a while to read.)
      const runIds = (
        await client.query<{ ids: string }>(`SELECT string_agg(nextval(pg_get_serial_sequence('runs', 'id'))::text, ',') AS ids FROM generate_series(1, $1::int)`, [total])
      ).rows[0].ids
        .split(',')
        .map(Number);
      const points = plan.points.flatMap((_, point) => Array.from({ length: batch.replications }, () => point));
      const pointsOfJobs = cutIntoJobs(points, this.jobRuns);
      const jobs = await addJobs(client, cutIntoJobs(runIds, this.jobRuns).map((runs, j) => runJobSpec(id, runs, pointsOfJobs[j])));
      // Each run belongs to the job whose payload lists it (add_jobs need not answer in order).
      const jobOf = new Map(jobs.flatMap((job) => parseRunJobPayload(job.payload).runs.map((run) => [run, job.id])));
      const replications = plan.points.flatMap(() => Array.from({ length: batch.replications }, (_, r) => r));
      const seeds = plan.points.flatMap((p) => Array.from({ length: batch.replications }, (_, r) => (BigInt(p.seed) + BigInt(r)).toString()));
      await client.query(
        `INSERT INTO runs (id, batch_id, point_index, replication, seed, job_id)
         SELECT r.id, $1, r.point_index, r.replication, r.seed, r.job_id
         FROM unnest($2::bigint[], $3::int[], $4::int[], $5::bigint[], $6::bigint[]) AS r(id, point_index, replication, seed, job_id)`,
        [id, integerArray(runIds), integerArray(points), integerArray(replications), integerArray(seeds), integerArray(runIds.map((run) => jobOf.get(run)!))],
      );
      return { kind: 'created', id, runs: total };
    });
  }

  async exists(id: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM batches WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  async get(id: string): Promise<BatchView | null> {
    const b = await this.pool.query<{
      id: string;
      title: string | null;
      scenario: Record<string, unknown>;
      grid: Record<string, unknown[]>;
      pointers: string[];
      replications: number;
      trace: Trace;
      total_runs: number;
      created_at: Date;
      cancelled_at: Date | null;
    }>('SELECT id, title, scenario, grid, pointers, replications, trace, total_runs, created_at, cancelled_at FROM batches WHERE id = $1', [id]);
    const row = b.rows[0];
    if (!row) return null;
    const { counts, lastFinished } = await readRunCounts(this.pool, batchRuns, id, row.total_runs);
    const status = deriveStatus(row.cancelled_at !== null, counts);
    const finishedAt = status === 'cancelled' ? row.cancelled_at : status === 'completed' || status === 'failed' ? lastFinished : null;

    // Per point and metric, computed by PostgreSQL: n, mean and sample sd; then the 95% Student-t
    // confidence interval of the mean, mean ± t(0.975, n-1) · sd/√n, with t from student_t_975
    // (migrations/0003_run-summaries-and-student-t.sql) asked once per distinct n: called per
    // point and metric inside the aggregation, that SQL function took 80 of the 86 ms the
    // statistics of 1000 points took.
    const pointRows = await this.pool.query(pointStatisticsSql, [id]);
    const freedoms = new Set<number>();
    for (const p of pointRows.rows) {
      metricDefinitions.forEach((_, i) => {
        if (Number(p[`n${i}`]) >= 2) freedoms.add(Number(p[`n${i}`]) - 1);
      });
    }
    const t = new Map<number, number>();
    if (freedoms.size > 0) {
      const r = await this.pool.query<{ df: string; t: number }>('SELECT df, student_t_975(df) AS t FROM unnest($1::bigint[]) AS df', [[...freedoms]]);
      for (const row of r.rows) t.set(Number(row.df), row.t);
    }
    const points: BatchPoint[] = pointRows.rows.map((p) => ({
      params: p.params,
      runs: Number(p.runs),
      // Every replication gave the same value of every metric (or none of it): the seeds reach no
      // randomness in the scenario. Compared exactly, not by sd, which sums in floating point.
      identicalReplications: Number(p.runs) >= 2 && metricDefinitions.every((_, i) => Number(p[`n${i}`]) === 0 || (Number(p[`n${i}`]) === Number(p.runs) && p[`same${i}`] === true)),
      stats: Object.fromEntries(
        metricDefinitions.map((m, i) => {
          const n = Number(p[`n${i}`]);
          const mean: number | null = p[`mean${i}`];
          const sd: number | null = p[`sd${i}`];
          const half = n >= 2 && mean !== null && sd !== null ? (t.get(n - 1)! * sd) / Math.sqrt(n) : null;
          const ci95: [number, number] | null = half === null ? null : [mean! - half, mean! + half];
          return [m.name, { n, mean: n === 0 ? null : mean, sd, ci95 }];
        }),
      ),
    }));
    return {
      id: row.id,
      title: row.title,
      status,
      createdAt: row.created_at.toISOString(),
      finishedAt: finishedAt ? finishedAt.toISOString() : null,
      scenario: row.scenario,
      grid: row.grid,
      pointers: row.pointers,
      replications: row.replications,
      trace: row.trace,
      counts,
      points,
    };
  }

  /** The batch's pointers, or null when there is no such batch. */
  async pointers(id: string): Promise<string[] | null> {
    const b = await this.pool.query<{ pointers: string[] }>('SELECT pointers FROM batches WHERE id = $1', [id]);
    return b.rows[0]?.pointers ?? null;
  }

  /**
   * Every run of the batch in point and replication order, read through a cursor a few hundred
   * rows at a time as the consumer takes them: a batch of any size streams in constant memory.
   * The stream holds a connection of the pool until it ends, fails or is destroyed.
   */
  /**
   * The batch's runs, read from a cursor on a connection of `pool` (the exports' own pool, whose
   * statement and idle timeouts end a download that lasts or stalls too long).
   */
  async streamResults(id: string, withSummary: boolean, pool: Pool = this.pool): Promise<Readable> {
    const columns = metricDefinitions.map((m) => `r.${m.column}`).join(', ');
    const rows = withSummary ? resultsBatchRows.withSummary : resultsBatchRows.plain;
    const client = await pool.connect();
    const stream = client.query(
      new QueryStream(
        `SELECT r.point_index, p.params, r.replication, r.seed, r.status, r.result_hash, r.error, ${columns}
                ${withSummary ? ', s.summary' : ''}
         FROM runs r JOIN batch_points p ON p.batch_id = r.batch_id AND p.point_index = r.point_index
              ${withSummary ? 'LEFT JOIN run_summaries s ON s.run_id = r.id' : ''}
         WHERE r.batch_id = $1
         ORDER BY r.point_index, r.replication`,
        [id],
        { batchSize: rows, highWaterMark: rows },
      ),
    );
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      // A connection whose cursor was left open mid-way is not given back to others.
      client.release(error ?? (stream.readableEnded ? undefined : new Error('results stream closed early')));
    };
    stream.once('end', () => release());
    stream.once('error', (error: Error) => release(error));
    stream.once('close', () => release());
    return stream;
  }

  /** A streamed row as the API's RunResult, without its summary (which jsonResult adds as text). */
  static runResult(row: ResultRow): RunResult {
    return {
      point: row.point_index,
      params: row.params,
      replication: row.replication,
      seed: row.seed,
      status: row.status,
      metrics: Object.fromEntries(metricDefinitions.map((m) => [m.name, row[m.column] === null ? null : Number(row[m.column])])),
      resultHash: row.result_hash,
      error: row.error,
    };
  }

  /**
   * A streamed row as the API's RunResult in JSON; with its summary, the stored text spliced in
   * as the last member (it is the simulator's JSON, never parsed or written again here).
   */
  static runResultJson(row: ResultRow, withSummary: boolean): string {
    const json = JSON.stringify(BatchRepository.runResult(row));
    return withSummary ? `${json.slice(0, -1)},"summary":${row.summary ?? 'null'}}` : json;
  }

  /**
   * Cancels the batch's unfinished runs and removes their queued jobs; a run in progress is
   * stopped by its worker (told through NOTIFY) and its result, if any, is discarded.
   * Returns 'finished' for a batch that had nothing left to cancel.
   */
  async cancel(id: string): Promise<'cancelled' | 'finished' | 'missing'> {
    return transaction(this.pool, (client) => cancelOwner(client, batchRuns, id));
  }
}
