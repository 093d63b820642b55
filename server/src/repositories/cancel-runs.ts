// Cancelling work made of queued runs, the same for a batch and a reproduction: within the caller's
// transaction, the owner is locked and marked cancelled, its unfinished runs become cancelled,
// their queued jobs go (a locked one, whose run is in progress, stays to its worker), and the
// workers are told on the cancel channel (ids are unique across batches and reproductions).
import type { PoolClient } from '../db/pool.js';
import { completeJobs } from '../queue/jobs.js';
import { cancelChannel } from '../queue/names.js';
import type { RunTables } from './run-counts.js';

/** Cancels the owner `id`; 'finished' when nothing was left to cancel, 'cancelled' also when it already was. */
export async function cancelOwner(client: PoolClient, t: RunTables, id: string): Promise<'cancelled' | 'finished' | 'missing'> {
  const owner = await client.query<{ cancelled_at: Date | null }>(`SELECT cancelled_at FROM ${t.owners} WHERE id = $1 FOR UPDATE`, [id]);
  if (owner.rowCount === 0) return 'missing';
  if (owner.rows[0].cancelled_at !== null) return 'cancelled';
  const open = await client.query(`SELECT 1 FROM ${t.runs} WHERE ${t.owner} = $1 AND status IN ('pending', 'running') LIMIT 1`, [id]);
  if (open.rowCount === 0) return 'finished';
  await client.query(`UPDATE ${t.owners} SET cancelled_at = now() WHERE id = $1`, [id]);
  await stopOpenRuns(client, t, id);
  return 'cancelled';
}

/** The owner's unfinished runs become cancelled, their queued jobs go, and the workers running one are told. */
export async function stopOpenRuns(client: PoolClient, t: RunTables, id: string): Promise<void> {
  // Their jobs, each once (a job holds many runs: a row per run of a large batch would take the
  // API's event loop a while to read).
  const stopped = await client.query<{ job_id: number }>(
    `WITH stopped AS (
       UPDATE ${t.runs} SET status = 'cancelled', finished_at = now()
       WHERE ${t.owner} = $1 AND status IN ('pending', 'running')
       RETURNING job_id
     )
     SELECT DISTINCT job_id FROM stopped WHERE job_id IS NOT NULL`,
    [id],
  );
  await completeJobs(client, stopped.rows.map((r) => r.job_id));
  await client.query('SELECT pg_notify($1, $2)', [cancelChannel, id]);
}
