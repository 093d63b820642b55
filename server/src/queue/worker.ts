// A worker process's work, put together: a graphile-worker runner whose tasks run a job's runs of a
// batch (run-task.ts) or of a reproduction, both through one JobRunner, build a reproduction's
// report (reproduction-tasks.ts) and run a saved experiment's scenario to check it
// (experiment-verification.ts); the registration and heartbeat that keep the process known to be alive
// and reap dead workers (liveness.ts), and the listener for cancelled batches and reproductions
// (cancellation.ts).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { run, type RunnerOptions, type WorkerEvents } from 'graphile-worker';
import { createPool, endPool, onConnectionLost, type Pool } from '../db/pool.js';
import { graphileLogger } from '../db/migrate.js';
import { ExperimentRepository } from '../repositories/experiments.js';
import { ReproductionRepository, type CompletedRun } from '../repositories/reproductions.js';
import { ResultWriter } from '../repositories/result-writer.js';
import { RunRepository, type RunResultEntry } from '../repositories/runs.js';
import type { Engine } from '../sim/engine.js';
import { CancellationListener } from './cancellation.js';
import { experimentVerificationTask, makeExperimentVerificationTask } from './experiment-verification.js';
import { startHeartbeat, WorkerRegistry, type Registration } from './liveness.js';
import { runTask, simulationJobFlag } from './names.js';
import { makeReproductionTasks } from './reproduction-tasks.js';
import { jobHeld } from './jobs.js';
import { JobRunner, makeRunTask, shutdownRetryMessage } from './run-task.js';

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
  /** Settles when the runner stops; rejects when it fails. */
  done: Promise<void>;
}

/**
 * graphile-worker 0.18 keeps the task list it reads on its first job fetch; when that read fails
 * (the database went away just then) it keeps the rejection, and every later fetch fails with the
 * same error. This watches the runner's events: when fetches keep failing while the database
 * answers the heartbeat, the runner is stopped (worker-main starts a new one, with a new cache).
 */
function watchForStuckFetches(events: WorkerEvents, stopRunner: () => void, log: (message: string) => void) {
  let failedFetches = 0;
  events.on('worker:getJob:error', () => void (failedFetches += 1));
  events.on('worker:getJob:empty', () => void (failedFetches = 0));
  events.on('job:start', () => void (failedFetches = 0));
  let stopped = false;
  return {
    /** The database answered just now. */
    databaseAnswers() {
      if (failedFetches < 3 || stopped) return;
      stopped = true;
      log('graphile-worker cannot fetch jobs although the database answers; restarting the worker');
      stopRunner();
    },
  };
}

/**
 * A worker's connections to PostgreSQL.
 * - Its commits need not wait for the disk: everything it writes can be done again. If the last of
 *   them are lost in a crash of the machine, WAL order keeps the rest consistent (a job's
 *   completion is never durable without the run result written before it), and the runs whose
 *   claims or results were lost run again, once.
 * - A worker cut off from the database in the middle of a transaction (a hand-back of runs: a few
 *   milliseconds) would otherwise leave it open, with the runs it locked, until PostgreSQL noticed
 *   the connection was gone (hours, with the kernel's TCP keepalive defaults), and the workers that
 *   take over its jobs could not claim those runs. PostgreSQL ends such a session when the worker
 *   would be taken for dead (`deadAfterMs`), so the locks are gone when its jobs go to others.
 */
export function workerPool(databaseUrl: string, concurrency: number, deadAfterMs: number, log: (message: string) => void): Pool {
  return createPool(databaseUrl, {
    max: concurrency * 2 + 3,
    synchronousCommit: false,
    idleInTransactionTimeoutMs: deadAfterMs,
    onError: (e) => log(`database connection lost: ${e.message}`),
  });
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { log } = options;
  const pool = workerPool(options.databaseUrl, options.concurrency, options.deadAfterMs, log);
  const registry = await WorkerRegistry.open(pool, log);
  const registration: Registration = {
    id: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    engine: options.engine.kind,
    concurrency: options.concurrency,
    lockIds: [],
  };
  await registry.register(registration);

  // The ids graphile-worker locks this process's jobs with are its worker pools' ids, learnt as
  // each pool starts; they go into the registration at once and with every heartbeat.
  const events = new EventEmitter() as WorkerEvents;
  events.on('pool:create', ({ workerPool }) => {
    registration.lockIds.push(workerPool.id);
    registry.register(registration).catch((error: Error) => log(`registering pool ${workerPool.id} failed: ${error.message}`));
  });
  const cancellation = await CancellationListener.start(options.databaseUrl);
  const runs = new RunRepository(pool);
  const runner = new JobRunner({ pipelined: options.engine.pipelined, jobHeld: (lock) => jobHeld(pool, lock), cancellation, log });
  const runTaskOptions = { runner, workerId: registration.id, engine: options.engine, runTimeoutMs: options.runTimeoutMs };
  const batchRunTask = makeRunTask({ ...runTaskOptions, runs, results: new ResultWriter((entries: RunResultEntry[]) => runs.record(entries)) });
  const reproductionRepository = new ReproductionRepository(pool);
  const reproductions = makeReproductionTasks({
    ...runTaskOptions,
    reproductions: reproductionRepository,
    records: new ResultWriter((entries: CompletedRun[]) => reproductionRepository.completeMany(entries)),
  });
  // Jobs at a time: `concurrency`, and with an engine that queues runs one more, taken only while
  // the jobs running are short runs all queued in the simulators (JobRunner.allQueuedAndShort): its
  // runs queue behind theirs, so a simulator does not wait between jobs. Otherwise a job that
  // runs simulations is left to free workers (forbiddenFlags, asked before every fetch). Fetches
  // under way count as jobs: the slots that start together must not all take one.
  const slots = options.concurrency + (options.engine.pipelined ? 1 : 0);
  let activeJobs = 0;
  let fetching = 0;
  events.on('job:start', () => void ((fetching -= 1), (activeJobs += 1)));
  events.on('job:complete', () => void (activeJobs -= 1));
  events.on('worker:getJob:empty', () => void (fetching -= 1));
  events.on('worker:getJob:error', () => void (fetching -= 1));
  const takesAnotherJob = () => {
    const taken = activeJobs + fetching;
    fetching += 1;
    if (taken < options.concurrency) return true;
    return taken < slots && fetching === 1 && activeJobs === runner.active && runner.allQueuedAndShort();
  };
  const graphileRunner = await run({
    pgPool: pool,
    concurrency: slots,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: {
      [runTask]: batchRunTask,
      ...reproductions.tasks,
      [experimentVerificationTask]: makeExperimentVerificationTask({ experiments: new ExperimentRepository(pool), engine: options.engine, runTimeoutMs: options.runTimeoutMs }),
    },
    forbiddenFlags: () => (takesAnotherJob() ? null : [simulationJobFlag]),
    // A job handed back at shutdown is expected, not an error worth a line.
    logger: graphileLogger((level, message) => {
      if (!message.includes(shutdownRetryMessage)) log(`graphile-worker ${level}: ${message}`);
    }),
    events,
    preset: { worker: { gracefulShutdownAbortTimeout: 500 } },
  } as RunnerOptions);
  let stopping = false;
  const watchdog = watchForStuckFetches(events, () => void graphileRunner.stop().catch(() => {}), log);
  // A connection that breaks means the database went away, or restarted after a crash, which can
  // lose this worker's last commits (they do not wait for the disk) and leave a job it was finishing
  // locked by this runner for good. The runner stops (its runs in progress go back to the queue) and
  // worker-main starts a new one, with a new registration, once the database answers: the jobs the
  // old one locked are released as a dead worker's (queue/liveness.ts).
  let connectionLost = false;
  onConnectionLost(pool, () => {
    if (connectionLost || stopping) return;
    connectionLost = true;
    log('a database connection broke; restarting the worker');
    void graphileRunner.stop().catch(() => {});
  });
  const stopHeartbeat = startHeartbeat({ registry, registration, intervalMs: options.heartbeatMs, deadAfterMs: options.deadAfterMs, log, onBeat: () => watchdog.databaseAnswers() });
  log(`worker ${registration.id}: ${options.concurrency} at a time, ${options.engine.kind} engine`);

  return {
    id: registration.id,
    done: graphileRunner.promise,
    async stop() {
      if (stopping) return;
      stopping = true;
      await stopHeartbeat();
      await graphileRunner.stop().catch(() => {});
      await cancellation.stop();
      await registry.deregister(registration.id).catch(() => {});
      await registry.close().catch(() => {});
      await endPool(pool).catch(() => {});
      await options.engine.close();
      reproductions.close();
    },
  };
}
