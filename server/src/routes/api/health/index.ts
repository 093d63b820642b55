// Health: can the database be reached, and are there workers for the work waiting? 200 when both
// hold, 503 (with the same body) when not. Every kind of queued work counts: a batch's runs, a
// reproduction's runs, and the runs that check saved experiments. The body names what failed in
// general words and an error code, never an address or a message of the driver's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { experimentVerificationTask } from '../../../queue/experiment-verification.js';
import { Health } from '../../../schemas/health.js';

/** A database error as the body may say it: its code (ECONNREFUSED, a SQLSTATE), not its message. */
function describeDatabaseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `unreachable (${code})` : 'unreachable';
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    { schema: { summary: 'Database and queue status', response: { 200: Health, 503: Health } }, config: { rateLimit: false } },
    async (request, reply) => {
      const started = performance.now();
      let database: Health['database'];
      let queue: Health['queue'];
      try {
        // An unfinished run belongs to a job still in the queue (a job is removed once all its runs
        // are recorded, or cancelled), so the runs counted are those of the queue's jobs, found
        // through runs_job_idx and reproduction_runs_job_idx: as many as the queue holds.
        const r = await app.db.query<{ workers: number; kinds: Record<'batches' | 'reproductions' | 'experiments', { pending: number; running: number }> }>(
          `SELECT (SELECT count(*) FROM workers WHERE heartbeat_at > now() - make_interval(secs => $1))::int AS workers,
                  json_build_object(
                    'batches', (SELECT json_build_object('pending', count(*) FILTER (WHERE r.status = 'pending'), 'running', count(*) FILTER (WHERE r.status = 'running'))
                                FROM graphile_worker.jobs j JOIN runs r ON r.job_id = j.id),
                    'reproductions', (SELECT json_build_object('pending', count(*) FILTER (WHERE r.status = 'pending'), 'running', count(*) FILTER (WHERE r.status = 'running'))
                                      FROM graphile_worker.jobs j JOIN reproduction_runs r ON r.job_id = j.id),
                    'experiments', (SELECT json_build_object('pending', count(*) FILTER (WHERE locked_at IS NULL), 'running', count(*) FILTER (WHERE locked_at IS NOT NULL))
                                    FROM graphile_worker.jobs WHERE task_identifier = $2)) AS kinds`,
          [app.config.workerDeadAfterMs / 1000, experimentVerificationTask],
        );
        database = { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
        const { workers, kinds } = r.rows[0];
        const pending = kinds.batches.pending + kinds.reproductions.pending + kinds.experiments.pending;
        const running = kinds.batches.running + kinds.reproductions.running + kinds.experiments.running;
        queue = { ok: workers > 0 || pending + running === 0, workers, pending, running, kinds };
        if (!queue.ok) queue.error = `${pending + running} runs wait and no worker is alive`;
      } catch (error) {
        request.log.warn({ err: error }, 'health: the database did not answer');
        database = { ok: false, error: describeDatabaseError(error) };
        queue = { ok: false, workers: 0, pending: 0, running: 0, error: 'unknown: the database is unreachable' };
      }
      const ok = database.ok && queue.ok;
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', database, queue, engine: app.runner.kind });
    },
  );
};

export default routes;
