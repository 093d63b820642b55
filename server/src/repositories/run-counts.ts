// The progress of a batch or a reproduction: its runs counted by status (the rows of one
// `SELECT status, count(*) AS n, max(finished_at) AS last ... GROUP BY status`), and when the last
// run that finished (done or failed) finished.
import type { RunCounts } from '../schemas/batches.js';

export function countRuns(total: number, rows: { status: string; n: number; last: Date | null }[]): { counts: RunCounts; lastFinished: Date | null } {
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
