// Health: can the database be reached, and are there workers for the runs waiting? 200 when both
// hold, 503 (with the same body) when not.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Health } from '../../../schemas/health.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    { schema: { summary: 'Database and queue status', response: { 200: Health, 503: Health } }, config: { rateLimit: false } },
    async (_request, reply) => {
      const started = performance.now();
      let database: { ok: boolean; latencyMs?: number; error?: string };
      let queue: { ok: boolean; workers: number; pending: number; running: number; error?: string };
      try {
        // An unfinished run belongs to a job still in the queue (a job is removed once all its runs
        // are recorded, or cancelled), so the runs counted are those of the queue's jobs, found
        // through runs_job_idx (migrations/0005_queue-writes.sql): as many as the queue holds.
        const r = await app.db.query<{ workers: number; pending: number; running: number }>(
          `SELECT (SELECT count(*) FROM workers WHERE heartbeat_at > now() - make_interval(secs => $1)) AS workers,
                  count(*) FILTER (WHERE r.status = 'pending') AS pending,
                  count(*) FILTER (WHERE r.status = 'running') AS running
           FROM graphile_worker.jobs j JOIN runs r ON r.job_id = j.id`,
          [app.config.workerDeadAfterMs / 1000],
        );
        database = { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
        const { workers, pending, running } = r.rows[0];
        queue = { ok: workers > 0 || pending + running === 0, workers, pending, running };
        if (!queue.ok) queue.error = `${pending + running} runs wait and no worker is alive`;
      } catch (error) {
        const message = (error as Error).message || String((error as { code?: string }).code ?? 'unreachable');
        database = { ok: false, error: message };
        queue = { ok: false, workers: 0, pending: 0, running: 0, error: 'unknown: the database is unreachable' };
      }
      const ok = database.ok && queue.ok;
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', database, queue, engine: app.runner.kind });
    },
  );
};

export default routes;
