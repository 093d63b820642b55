// The service's configuration, read from the environment once. Every limit the API enforces is
// here, under the name its error messages use, so that a client told "limit X" can find it.
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: server/dist/src/config.js lives three levels below it. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  host: string;
  port: number;
  /** Empty: start an embedded PostgreSQL under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Local worker processes `npm start` runs beside the server. */
  workers: number;
  /** Runs one worker process executes at once (simulator processes or WASM threads). */
  workerConcurrency: number;
  /** WORKER_NICE: the scheduling priority (nice value) of worker processes and their simulators. */
  workerNice: number;
  /**
   * WORKER_RUNNER: how a worker runs the native tcpsim: `serve` keeps one `tcpsim serve` process
   * per concurrent run and feeds it run after run (the default); `spawn` starts tcpsim per run.
   */
  workerRunner: 'serve' | 'spawn';
  /** BATCH_JOB_RUNS: consecutive runs of a batch or a reproduction queued as one job (a worker claims them in groups). */
  batchJobRuns: number;
  tcpsimPath: string;
  webDist: string;
  limits: Limits;
  rateLimit: { max: number; windowMs: number; runsMax: number };
  /** The work budgets (repositories/budgets.ts), in work units (sim/cost.ts). */
  budgets: { client: number; windowS: number; queue: number };
  /** The pool that streams results out (routes/api/batches: exports). */
  exports: Exports;
  heartbeatMs: number;
  workerDeadAfterMs: number;
  logLevel: string;
}

export interface Limits {
  /** BODY_LIMIT_BYTES: the largest request body. */
  bodyBytes: number;
  /** MAX_JSON_DEPTH: arrays and objects nested in a request body, at most. */
  jsonDepth: number;
  /** MAX_BATCH_RUNS: grid points x replications of one batch. */
  batchRuns: number;
  /** MAX_GRID_POINTS: grid points of one batch (each is validated when the batch is submitted). */
  gridPoints: number;
  /** MAX_DURATION_S: simulated seconds of one run of a batch. */
  durationS: number;
  /** RUN_TIMEOUT_S: wall time of one run of a batch, after which it is stopped and failed. */
  runTimeoutS: number;
  /** SYNC_MAX_DURATION_S: simulated seconds of a synchronous run (POST /api/runs, experiments). */
  syncDurationS: number;
  /** SYNC_TIMEOUT_S: wall time of a synchronous run. */
  syncTimeoutS: number;
  /**
   * MAX_RUN_MEMORY_MB: what one run of a batch or a reproduction may hold, MiB (tcpsim's own account,
   * --max-memory-mb); its process also runs under an address-space limit (sim/spawn.ts).
   */
  runMemoryMb: number;
  /** SYNC_MAX_MEMORY_MB: the same for a synchronous run (POST /api/runs, experiments). */
  syncMemoryMb: number;
  /** MAX_STORED_RUNS: rows of runs in the database, every batch's; a batch that would exceed it is refused. */
  storedRuns: number;
  /** MAX_DATABASE_BYTES: the database's size on disk with a new batch's estimated size; beyond it the batch is refused. */
  databaseBytes: number;
}

export interface Exports {
  /** EXPORT_CONNECTIONS: database connections of the exports' own pool. */
  connections: number;
  /** EXPORTS_PER_CLIENT: downloads of results one client may have open at once. */
  perClient: number;
  /** EXPORT_STATEMENT_TIMEOUT_S: the longest a download's query may run. */
  statementTimeoutS: number;
  /** EXPORT_IDLE_TIMEOUT_S: the longest a download may wait for its client to read more. */
  idleTimeoutS: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

function positive(env: Env, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a number > 0 (got "${text}")`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!values.includes(text as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${text}")`);
  return text as T;
}

export function loadConfig(env: Env = process.env): Config {
  const cores = availableParallelism();
  const tcpsimPath = env.TCPSIM ? resolve(env.TCPSIM) : join(repoRoot, 'build/release/tcpsim');
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || join(repoRoot, '.data')),
    workers: integer(env, 'WORKERS', cores, 0, 256),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 1, 1, 64),
    workerNice: integer(env, 'WORKER_NICE', 10, 0, 19),
    workerRunner: oneOf(env, 'WORKER_RUNNER', ['serve', 'spawn'] as const, 'serve'),
    batchJobRuns: integer(env, 'BATCH_JOB_RUNS', 32, 1, 1000),
    tcpsimPath,
    webDist: resolve(env.WEB_DIST || join(repoRoot, 'web/dist')),
    limits: {
      bodyBytes: integer(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024),
      // A body wraps a scenario or an experiment, which sim-core lets nest 64 levels deep
      // (kMaxJsonDepth, sim-core/json/json_depth.h), in two levels at most.
      jsonDepth: integer(env, 'MAX_JSON_DEPTH', 66, 2, 10_000),
      batchRuns: integer(env, 'MAX_BATCH_RUNS', 100_000, 1),
      gridPoints: integer(env, 'MAX_GRID_POINTS', 1000, 1),
      durationS: positive(env, 'MAX_DURATION_S', 3600),
      runTimeoutS: positive(env, 'RUN_TIMEOUT_S', 300),
      syncDurationS: positive(env, 'SYNC_MAX_DURATION_S', 300),
      syncTimeoutS: positive(env, 'SYNC_TIMEOUT_S', 10),
      runMemoryMb: integer(env, 'MAX_RUN_MEMORY_MB', 1024, 16, 1024 * 1024),
      syncMemoryMb: integer(env, 'SYNC_MAX_MEMORY_MB', 256, 16, 1024 * 1024),
      storedRuns: integer(env, 'MAX_STORED_RUNS', 10_000_000, 1),
      databaseBytes: integer(env, 'MAX_DATABASE_BYTES', 50 * 1024 ** 3, 1),
    },
    rateLimit: {
      max: integer(env, 'RATE_LIMIT_MAX', 600, 1),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1),
      runsMax: integer(env, 'RATE_LIMIT_RUNS_MAX', 60, 1),
    },
    budgets: {
      client: positive(env, 'CLIENT_BUDGET', 1e9),
      windowS: positive(env, 'CLIENT_BUDGET_WINDOW_S', 3600),
      queue: positive(env, 'QUEUE_BUDGET', 4e9),
    },
    exports: {
      connections: integer(env, 'EXPORT_CONNECTIONS', 4, 1, 100),
      perClient: integer(env, 'EXPORTS_PER_CLIENT', 2, 1, 100),
      statementTimeoutS: positive(env, 'EXPORT_STATEMENT_TIMEOUT_S', 600),
      idleTimeoutS: positive(env, 'EXPORT_IDLE_TIMEOUT_S', 30),
    },
    heartbeatMs: integer(env, 'WORKER_HEARTBEAT_MS', 5000, 50),
    workerDeadAfterMs: integer(env, 'WORKER_DEAD_AFTER_MS', 30_000, 100),
    logLevel: env.LOG_LEVEL || 'info',
  };
}

export function tcpsimAvailable(config: Config): boolean {
  return existsSync(config.tcpsimPath);
}
