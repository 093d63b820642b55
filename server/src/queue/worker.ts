// A worker process's work: a graphile-worker runner (whose pool id, the id its job locks carry,
// is registered with the process), the task that runs one run of a
// batch with the simulator, the heartbeat that keeps the process registered in `workers`, the
// reaper that hands the jobs of dead workers back to the queue, and a LISTEN for cancelled batches.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { run, type Runner, type RunnerOptions, type Task, type WorkerEvents } from 'graphile-worker';
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
  // Locks no registered worker claims, held longer than a heartbeat may be missed: their worker died
  // before it could record its graphile-worker pool id (or was deregistered long ago).
  await pool.query(
    `SELECT graphile_worker.force_unlock_workers(coalesce(array_agg(DISTINCT j.locked_by), '{}'))
     FROM graphile_worker._private_jobs j
     WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => $1)
       AND NOT EXISTS (SELECT 1 FROM workers w WHERE j.locked_by = ANY (w.lock_ids))`,
    [deadAfterMs / 1000],
  );
  return r.rows[0]?.ids ?? [];
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { log } = options;
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // The ids graphile-worker locks this process's jobs with (its worker pools' ids), learnt from
  // its events as each pool starts; they go into the registration at once and with every heartbeat.
  const lockIds: string[] = [];
  // A worker's commits need not wait for the disk: everything it writes can be done again. If the
  // last of them are lost in a crash of the machine, WAL order keeps the rest consistent (a job's
  // completion is never durable without the run result written before it), and the runs whose
  // claims or results were lost run again, once.
  const pool = createPool(options.databaseUrl, {
    max: options.concurrency * 2 + 3,
    synchronousCommit: false,
    onError: (e) => log(`database connection lost: ${e.message}`),
  });
  const runs = new RunRepository(pool);
  const inProgress = new Map<string, Set<AbortController>>(); // batch id → its runs here
  let stopping = false;

  const register = () =>
    pool.query(
      `INSERT INTO workers (id, hostname, pid, engine, concurrency, lock_ids) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), lock_ids = excluded.lock_ids`,
      [id, hostname(), process.pid, options.engine.kind, options.concurrency, lockIds],
    );
  await register();
  const events = new EventEmitter() as WorkerEvents;
  events.on('worker:getJob:error', () => void (fetchErrorsWhileDatabaseUp += 1));
  events.on('worker:getJob:empty', () => void (fetchErrorsWhileDatabaseUp = 0));
  events.on('job:start', () => void (fetchErrorsWhileDatabaseUp = 0));
  events.on('pool:create', ({ workerPool }) => {
    lockIds.push(workerPool.id);
    register().catch((error: Error) => log(`registering pool ${workerPool.id} failed: ${error.message}`));
  });

  // graphile-worker 0.18 keeps the task list it reads on its first job fetch; when that read fails
  // (the database went away just then) it keeps the rejection, and every later fetch fails with the
  // same error. So: when fetches keep failing while the database answers the heartbeat, the runner
  // is replaced (worker-main starts a new one, with a new cache).
  let fetchErrorsWhileDatabaseUp = 0;
  let runnerRestart: (() => void) | undefined;
  const heartbeat = setInterval(() => {
    register()
      .then(() => {
        if (fetchErrorsWhileDatabaseUp >= 3 && runnerRestart) {
          log('graphile-worker cannot fetch jobs although the database answers; restarting the worker');
          runnerRestart();
        }
      })
      .catch((error: Error) => {
        fetchErrorsWhileDatabaseUp = 0;
        throw error;
      })
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
      } else if (outcome.kind === 'timeout') {
        await runs.fail(claimed, `${outcome.message} (RUN_TIMEOUT_S)`);
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
  const runnerOptions = {
    pgPool: pool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: { [runTask]: task },
    logger,
    events,
    preset: { worker: { gracefulShutdownAbortTimeout: 500 } },
  } as RunnerOptions;
  const runners: Runner[] = [await run(runnerOptions)];
  runnerRestart = () => {
    runnerRestart = undefined;
    void runners[0].stop().catch(() => {});
  };
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
