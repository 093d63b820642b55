// The service's storage budgets, checked when a batch is submitted so that a batch that would not
// fit is refused up front (413 naming the limit and the batch's size) rather than filling the disk
// run by run: MAX_STORED_RUNS rows in `runs`, and MAX_DATABASE_BYTES for the whole database.
import type { Pool } from '../db/pool.js';
import { RequestError } from '../responses.js';
import type { Trace } from '../schemas/batches.js';

export interface StorageLimits {
  /** MAX_STORED_RUNS: rows of `runs`, every batch's, finished or not. */
  storedRuns: number;
  /** MAX_DATABASE_BYTES: the database's size on disk (pg_database_size). */
  databaseBytes: number;
}

/**
 * What a run's row costs beside its summary: its other columns (ids, seed, status, times, metrics:
 * about 270 bytes by pg_column_size), the 24-byte tuple header, and an entry of about 40-50 bytes
 * in each of the table's five indexes.
 */
export const runRowBytes = 500;

/**
 * What a reproduction's run costs: its row (ids, status, times: about 200 bytes), its record (a
 * metric array of a few doubles and the 64-character resultHash) and its two index entries.
 */
export const reproductionRunBytes = 400;

/**
 * A run's stored summary before any is recorded at that trace level: 'none' keeps run totals and
 * per-item totals (1-3 kB for the presets), 'summary' adds per-flow, per-transfer and per-link
 * records (15-45 kB for the presets as printed; PostgreSQL stores them compressed, so less).
 */
export const defaultSummaryBytes: Record<Trace, number> = { none: 2048, summary: 32_768 };

/** How many of the latest recorded runs the per-run estimate averages. */
const sampleRuns = 200;

export interface BatchSize {
  runs: number;
  /** The estimated bytes its runs and points will take in the database. */
  bytes: number;
}

export class StorageBudget {
  constructor(
    private readonly pool: Pool,
    private readonly limits: StorageLimits,
  ) {}

  /**
   * A run's estimated size at a trace level: the mean stored summary of the latest runs recorded
   * at that level (so the estimate follows the scenarios this service is given), or the default
   * when there are none yet, plus the row's other columns.
   */
  async runBytes(trace: Trace): Promise<number> {
    const r = await this.pool.query<{ bytes: number | null }>(
      `SELECT avg(pg_column_size(s.summary))::float8 AS bytes
       FROM (SELECT rs.summary FROM run_summaries rs JOIN runs r ON r.id = rs.run_id
             JOIN batches b ON b.id = r.batch_id
             WHERE b.trace = $1
             ORDER BY rs.run_id DESC LIMIT $2) s`,
      [trace, sampleRuns],
    );
    const summary = r.rows[0]?.bytes ?? defaultSummaryBytes[trace];
    return Math.ceil(summary) + runRowBytes;
  }

  /** The batch's size: its runs, and its runs' and points' estimated bytes. */
  async sizeOf(runs: number, trace: Trace, pointsJsonBytes: number): Promise<BatchSize> {
    return { runs, bytes: runs * (await this.runBytes(trace)) + pointsJsonBytes };
  }

  /**
   * Refuses (413, naming the limit, its value, the batch's size and what is stored now) a batch
   * that would take the stored runs or the database's size over its budget. Checked when the batch
   * is submitted: batches submitted at the same moment are each checked against what was stored
   * before them. A resubmission of a batch already accepted (its Idempotency-Key is stored) stores
   * nothing and passes: then true. Runs are a batch's or a reproduction's.
   */
  async check(size: BatchSize, idempotencyKey: string | null, what = 'this batch'): Promise<boolean> {
    const r = await this.pool.query<{ runs: number; bytes: number; resubmitted: boolean }>(
      `SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM reproduction_runs) AS runs, pg_database_size(current_database()) AS bytes,
              EXISTS (SELECT 1 FROM batches WHERE idempotency_key = $1) AS resubmitted`,
      [idempotencyKey],
    );
    const used = r.rows[0];
    if (used.resubmitted) return true;
    if (used.runs + size.runs > this.limits.storedRuns) {
      throw new RequestError(
        413,
        `${what}'s ${size.runs} runs and the ${used.runs} runs stored would be more than MAX_STORED_RUNS = ${this.limits.storedRuns}; delete old data or raise the limit`,
        { limit: 'MAX_STORED_RUNS', value: this.limits.storedRuns, size: size.runs, used: used.runs },
      );
    }
    if (used.bytes + size.bytes > this.limits.databaseBytes) {
      throw new RequestError(
        413,
        `${what} (${size.runs} runs, about ${size.bytes} bytes) and the database's ${used.bytes} bytes would be more than MAX_DATABASE_BYTES = ${this.limits.databaseBytes}; delete old data or raise the limit`,
        { limit: 'MAX_DATABASE_BYTES', value: this.limits.databaseBytes, size: size.bytes, used: used.bytes },
      );
    }
    return false;
  }
}
