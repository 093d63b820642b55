// Which workers are alive. Every worker process registers in `workers` with the ids its
// graphile-worker pools lock jobs with, and renews the registration on a heartbeat; any process
// (a worker, or the server) reaps the registrations of dead workers and hands their locked jobs
// back to the queue with graphile-worker's WorkerUtils.forceUnlockWorkers.
import { hostname } from 'node:os';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import type { Pool } from '../db/pool.js';
import { graphileLogger } from '../db/migrate.js';

export interface Registration {
  id: string;
  engine: string;
  concurrency: number;
  /** graphile-worker pool ids: the `locked_by` of this process's jobs. */
  lockIds: string[];
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class WorkerRegistry {
  private constructor(
    private readonly pool: Pool,
    private readonly utils: WorkerUtils,
  ) {}

  static async open(pool: Pool, log: (message: string) => void): Promise<WorkerRegistry> {
    const logger = graphileLogger((level, message) => log(`graphile-worker ${level}: ${message}`));
    return new WorkerRegistry(pool, await makeWorkerUtils({ pgPool: pool, logger }));
  }

  /** Registers this process, or renews its registration (the heartbeat). */
  async register(worker: Registration): Promise<void> {
    await this.pool.query(
      `INSERT INTO workers (id, hostname, pid, engine, concurrency, lock_ids) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), lock_ids = excluded.lock_ids`,
      [worker.id, hostname(), process.pid, worker.engine, worker.concurrency, worker.lockIds],
    );
  }

  async deregister(id: string): Promise<void> {
    await this.pool.query('DELETE FROM workers WHERE id = $1', [id]);
  }

  /**
   * Removes the registrations of dead workers and unlocks their jobs. A worker is dead when its
   * heartbeat is older than `deadAfterMs`, or at once when it ran on this host and its process is
   * gone. Jobs locked longer than that by a pool no registered worker claims are unlocked too: their
   * worker died before it could record the pool's id, or between deregistering and unlocking here.
   * Returns the ids of the workers reaped.
   */
  async reapDead(deadAfterMs: number): Promise<string[]> {
    const local = await this.pool.query<{ id: string; pid: number }>('SELECT id, pid FROM workers WHERE hostname = $1', [hostname()]);
    const gone = local.rows.filter((w) => w.pid !== process.pid && !pidAlive(w.pid)).map((w) => w.id);
    const dead = await this.pool.query<{ id: string; lock_ids: string[] }>(
      `DELETE FROM workers WHERE heartbeat_at < now() - make_interval(secs => $1) OR id = ANY($2::text[])
       RETURNING id, lock_ids`,
      [deadAfterMs / 1000, gone],
    );
    const orphans = await this.pool.query<{ locked_by: string }>(
      `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
       WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => $1)
         AND NOT EXISTS (SELECT 1 FROM workers w WHERE j.locked_by = ANY (w.lock_ids))`,
      [deadAfterMs / 1000],
    );
    const lockIds = [...dead.rows.flatMap((w) => w.lock_ids), ...orphans.rows.map((j) => j.locked_by)];
    if (lockIds.length > 0) await this.utils.forceUnlockWorkers([...new Set(lockIds)]);
    return dead.rows.map((w) => w.id);
  }

  /** Lets go of WorkerUtils (the pool stays its owner's). */
  async close(): Promise<void> {
    await this.utils.release();
  }
}

export interface HeartbeatOptions {
  registry: WorkerRegistry;
  registration: Registration;
  intervalMs: number;
  deadAfterMs: number;
  log: (message: string) => void;
  /** Called on each beat that finds the database answering. */
  onBeat?: () => void;
}

/**
 * Renews the registration every `intervalMs`, then reaps dead workers (one beat at a time). Returns
 * its stop function, which settles once a beat in progress has finished, so that the pool can be
 * ended after it without the beat failing on it.
 */
export function startHeartbeat(options: HeartbeatOptions): () => Promise<void> {
  const { registry, log } = options;
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const beat = async () => {
    await registry.register(options.registration);
    options.onBeat?.();
    const reaped = await registry.reapDead(options.deadAfterMs);
    if (reaped.length > 0) log(`released the jobs of dead workers ${reaped.join(', ')}`);
  };
  const timer = setInterval(() => {
    if (inFlight || stopped) return;
    inFlight = beat()
      .catch((error: Error) => void (stopped || log(`heartbeat failed: ${error.message}`)))
      .finally(() => void (inFlight = undefined));
  }, options.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await inFlight;
  };
}
