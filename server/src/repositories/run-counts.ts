// The progress of a batch or a reproduction: its runs counted by status (one `SELECT status,
// count(*) ... GROUP BY status` over its runs), and when the last run that finished (done or
// failed) finished. Also where each kind of work keeps its runs.
import type { Pool } from '../db/pool.js';
import type { RunCounts } from '../schemas/batches.js';

/** Where a kind of work keeps its runs (fixed table and column names, never input). */
export interface RunTables {
  owners: 'batches' | 'reproductions';
  runs: 'runs' | 'reproduction_runs';
  owner: 'batch_id' | 'reproduction_id';
}

export const batchRuns: RunTables = { owners: 'batches', runs: 'runs', owner: 'batch_id' };
export const reproductionRuns: RunTables = { owners: 'reproductions', runs: 'reproduction_runs', owner: 'reproduction_id' };

/** The runs of owner `id` (of `total` runs) counted by status, and when the last one finished. */
export async function readRunCounts(pool: Pool, t: RunTables, id: string, total: number): Promise<{ counts: RunCounts; lastFinished: Date | null }> {
  const rows = await pool.query<{ status: string; n: number; last: Date | null }>(
    `SELECT status, count(*) AS n, max(finished_at) AS last FROM ${t.runs} WHERE ${t.owner} = $1 GROUP BY status`,
    [id],
  );
  return countRuns(total, rows.rows);
}

function countRuns(total: number, rows: { status: string; n: number; last: Date | null }[]): { counts: RunCounts; lastFinished: Date | null } {
  const counts: RunCounts = { total, done: 0, failed: 0, cancelled: 0, pending: 0, running: 0 };
  let lastFinished: Date | null = null;
  for (const c of rows) {
    if (c.status === 'done') counts.done = c.n;
    else if (c.status === 'failed') counts.failed = c.n;
    else if (c.status === 'cancelled') counts.cancelled = c.n;
    else if (c.status === 'running') counts.running = c.n;
    else counts.pending += c.n;
    if ((c.status === 'done' || c.status === 'failed') && c.last && (!lastFinished || c.last > lastFinished)) lastFinished = c.last;
  }
  counts.pending += counts.running;
  return { counts, lastFinished };
}
