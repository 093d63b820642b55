// A worker process's work: graphile-worker runners (one per concurrent run, each with its own
// worker id, so the process knows every id its job locks carry), the task that runs one run of a
// batch with the simulator, the heartbeat that keeps the process registered in `workers`, the
// reaper that hands the jobs of dead workers back to the queue, and a LISTEN for cancelled batches.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { run, type Runner, type RunnerOptions, type Task } from 'graphile-worker';
import pg from 'pg';
import { createPool, type Pool } from '../db/pool.js';
import { graphileLogger } from '../db/migrate.js';
import { RunRepository } from '../repositories/batches.js';
import type { Engine } from '../sim/engine.js';
import { cancelChannel, maxRunAttempts, runTask } from './names.js';

export interface WorkerOptions {
  databaseUrl: string;
  concurrency: number;
  engine: Engine;
  runTimeoutMs: number;
  heartbeatMs: number;
  deadAfterMs: number;
  log: (message: string) => void;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs, stops the runs in progress (their jobs go back to the queue) and deregisters. */
  stop(): Promise<void>;
  /** Settles when the runners stop; rejects when one fails. */
  done: Promise<void>;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the registrations of dead workers and unlocks their jobs, in one transaction. A worker
 * is dead when its heartbeat is older than `deadAfterMs`, or at once when it ran on this host and
 * its process is gone. Returns the ids reaped.
 */
export async function reapDeadWorkers(pool: Pool, deadAfterMs: number): Promise<string[]> {
  const host = hostname();
  const local = await pool.query<{ id: string; pid: number }>('SELECT id, pid FROM workers WHERE hostname = $1', [host]);
  const gone = local.rows.filter((w) => w.pid !== process.pid && !pidAlive(w.pid)).map((w) => w.id);
  const r = await pool.query<{ ids: string[] | null }>(
    `WITH dead AS (
       DELETE FROM workers
       WHERE heartbeat_at < now() - make_interval(secs => $1) OR id = ANY($2::text[])
       RETURNING id, lock_ids),
     unlocked AS (
       SELECT graphile_worker.force_unlock_workers(coalesce((SELECT array_agg(l) FROM dead, unnest(dead.lock_ids) AS l), '{}')))
     SELECT (SELECT array_agg(id) FROM dead) AS ids, (SELECT count(*) FROM unlocked) AS n`,
    [deadAfterMs / 1000, gone],
  );
  return r.rows[0]?.ids ?? [];
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { log } = options;
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const lockIds = Array.from({ length: options.concurrency }, (_, i) => (options.concurrency === 1 ? id : `${id}/${i}`));
  const pool = createPool(options.databaseUrl, { max: options.concurrency * 2 + 3, onError: (e) => log(`database connection lost: ${e.message}`) });
  const runs = new RunRepository(pool);
  const inProgress = new Map<string, Set<AbortController>>(); // batch id → its runs here
  let stopping = false;

  const register = () =>
    pool.query(
      `INSERT INTO workers (id, hostname, pid, engine, concurrency, lock_ids) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [id, hostname(), process.pid, options.engine.kind, options.concurrency, lockIds],
    );
  // Registered before any runner can lock a job, so that no lock of ours is ever unknown.
  await register();

  const heartbeat = setInterval(() => {
    register()
      .then(() => reapDeadWorkers(pool, options.deadAfterMs))
      .then((reaped) => reaped.length > 0 && log(`released the jobs of dead workers ${reaped.join(', ')}`))
      .catch((error: Error) => log(`heartbeat failed: ${error.message}`));
  }, options.heartbeatMs);
  heartbeat.unref();

  // Cancelled batches: stop their runs here at once (the API has already marked them cancelled).
  let listener: pg.Client | undefined;
  let listenTimer: NodeJS.Timeout | undefined;
  const listen = async () => {
    if (stopping) return;
    const client = new pg.Client({ connectionString: options.databaseUrl });
    client.on('error', () => {
      client.end().catch(() => {});
      if (listener === client) listener = undefined;
      if (!stopping) listenTimer = setTimeout(() => void listen().catch(() => {}), 1000);
    });
    client.on('notification', (message) => {
      for (const controller of inProgress.get(message.payload ?? '') ?? []) controller.abort();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${cancelChannel}`);
      listener = client;
    } catch {
      client.end().catch(() => {});
      if (!stopping) listenTimer = setTimeout(() => void listen().catch(() => {}), 1000);
    }
  };
  await listen();

  const task: Task = async (payload, helpers) => {
    const runId = Number((payload as { run?: unknown }).run);
    if (!Number.isInteger(runId)) throw new Error(`bad payload ${JSON.stringify(payload)}`);
    const claimed = await runs.claim(runId, id, options.engine.kind);
    if (!claimed) return; // Finished, or cancelled: nothing to do.
    if (claimed.attempt > maxRunAttempts) {
      await runs.fail(claimed, `the run was started ${maxRunAttempts} times and its worker stopped each time`);
      return;
    }
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    helpers.abortSignal?.addEventListener('abort', onShutdown, { once: true });
    let set = inProgress.get(claimed.batchId);
    if (!set) inProgress.set(claimed.batchId, (set = new Set()));
    set.add(controller);
    try {
      const outcome = await options.engine.run(JSON.stringify(claimed.scenario), {
        seed: claimed.seed,
        trace: claimed.trace,
        timeoutMs: options.runTimeoutMs,
        signal: controller.signal,
      });
      if (outcome.ok) {
        await runs.complete(claimed, outcome.summary, outcome.wallSeconds);
      } else if (outcome.kind === 'aborted') {
        // Cancelled: the run is already marked. Shut down: the job fails and runs again later.
        if (helpers.abortSignal?.aborted) throw new Error('worker shutting down; the run will be retried');
      } else if (outcome.kind === 'scenario') {
        await runs.fail(claimed, `${outcome.path}: ${outcome.problem}`);
      } else {
        await runs.fail(claimed, outcome.message);
      }
    } finally {
      helpers.abortSignal?.removeEventListener('abort', onShutdown);
      set.delete(controller);
      if (set.size === 0) inProgress.delete(claimed.batchId);
    }
  };

  const logger = graphileLogger((level, message) => log(`graphile-worker ${level}: ${message}`));
  const runners: Runner[] = [];
  for (const workerId of lockIds) {
    const runnerOptions = {
      pgPool: pool,
      concurrency: 1,
      workerId,
      noHandleSignals: true,
      pollInterval: 1000,
      taskList: { [runTask]: task },
      logger,
      preset: { worker: { gracefulShutdownAbortTimeout: 500 } },
    } as RunnerOptions;
    runners.push(await run(runnerOptions));
  }
  log(`worker ${id}: ${options.concurrency} at a time, ${options.engine.kind} engine`);

  const done = Promise.all(runners.map((r) => r.promise)).then(() => {});
  return {
    id,
    done,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(heartbeat);
      clearTimeout(listenTimer);
      await Promise.allSettled(runners.map((r) => r.stop()));
      await listener?.end().catch(() => {});
      await pool.query('DELETE FROM workers WHERE id = $1', [id]).catch(() => {});
      await pool.end().catch(() => {});
      await options.engine.close();
    },
  };
}
