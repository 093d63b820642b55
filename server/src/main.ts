// `npm start`: the service on one machine. PostgreSQL is DATABASE_URL's, or an embedded one under
// DATA_DIR (default .data/) kept across restarts; migrations are applied; the API and the web app
// are served on HOST:PORT; WORKERS local worker processes (default: one per core) run batches, and
// one that dies is replaced, its job going back to the queue at once.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createPool, endPool } from './db/pool.js';
import { PresetCatalog } from './presets.js';
import { WorkerRegistry } from './queue/liveness.js';
import { createRunEngine, createValidationEngine } from './sim/engine.js';

const log = (message: string) => console.error(`[server] ${message}`);

async function main(): Promise<void> {
  const config = loadConfig();

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = join(config.dataDir, 'postgres');
    log(`starting the embedded PostgreSQL in ${dir}`);
    embedded = await startEmbeddedPostgres({ dir, notice: log, ownProcessGroup: true, supervise: true });
    databaseUrl = embedded.url;
    log(`embedded PostgreSQL on 127.0.0.1:${embedded.port}`);
  }
  await migrate(databaseUrl, log);

  const syncLimits = { memoryMb: config.limits.syncMemoryMb };
  const runner = await createRunEngine(config.tcpsimPath, Math.max(1, config.workers), syncLimits);
  const validator = await createValidationEngine(config.tcpsimPath, syncLimits);
  const presets = await PresetCatalog.load(runner.kind === 'native' ? runner : validator);
  const pool = createPool(databaseUrl, { max: 20, onError: (e) => log(`database connection lost: ${e.message}`) });
  // Results downloads read from a pool of their own, so that slow readers cannot hold the API's.
  const exportsPool = createPool(databaseUrl, {
    max: config.exports.connections,
    statementTimeoutMs: config.exports.statementTimeoutS * 1000,
    idleInTransactionTimeoutMs: config.exports.idleTimeoutS * 1000,
    onError: (e) => log(`database connection lost (exports): ${e.message}`),
  });
  const registry = await WorkerRegistry.open(pool, log);
  const app = await buildApp({ config, pool, exportsPool, validator, runner, presets, logger: { level: config.logLevel } });

  // Local workers, each a process of its own (npm run worker's code).
  const workerScript = join(fileURLToPath(new URL('.', import.meta.url)), 'worker-main.js');
  const children = new Set<ChildProcess>();
  let stopping = false;
  const startLocalWorker = (slot: number, failures = 0) => {
    const child = fork(workerScript, [], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'inherit' });
    children.add(child);
    const started = Date.now();
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      log(`local worker ${slot} (pid ${child.pid}) ended (${signal ?? `exit ${code}`}); its job goes back to the queue and a new worker starts`);
      registry.reapDead(config.workerDeadAfterMs).catch((e: Error) => log(`releasing its jobs failed: ${e.message}`));
      // A worker that keeps dying soon after starting is restarted less and less often.
      const again = Date.now() - started < 10_000 ? failures + 1 : 0;
      const delay = again === 0 ? 100 : Math.min(1000 * 2 ** again, 30_000);
      setTimeout(() => !stopping && startLocalWorker(slot, again), delay);
    });
  };
  for (let i = 0; i < config.workers; ++i) startLocalWorker(i);

  // Remote workers that die are noticed here too (and by every other worker).
  const reaper = setInterval(() => {
    registry.reapDead(config.workerDeadAfterMs)
      .then((ids) => ids.length > 0 && log(`released the jobs of dead workers ${ids.join(', ')}`))
      .catch(() => {});
  }, config.heartbeatMs);
  reaper.unref();

  const address = await app.listen({ host: config.host, port: config.port });
  log(`listening on ${address} (API at /api, OpenAPI at /docs); ${config.workers} local worker(s), ${runner.kind} engine`);
  if (!existsSync(join(config.webDist, 'index.html'))) {
    log(`the web app is not built (${config.webDist} is missing): the API works; build the app with "npm run build --workspace web"`);
  }

  // In order, each step bounded: stop accepting requests (those in flight finish), stop the local
  // workers (their runs in progress go back to the queue), release the database, stop PostgreSQL.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    clearInterval(reaper);
    await app.close().catch(() => {});
    const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of children) child.kill('SIGTERM');
    const stopped = await Promise.race([Promise.all(exits).then(() => true), new Promise((resolve) => setTimeout(resolve, 10_000, false))]);
    if (!stopped) {
      log('local workers still running after 10 s: killing them');
      for (const child of children) child.kill('SIGKILL');
    }
    await registry.close().catch(() => {});
    await endPool(pool).catch(() => {});
    await endPool(exportsPool).catch(() => {});
    await runner.close();
    await validator.close();
    await embedded?.stop().catch(() => {});
    log('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void shutdown(signal));
  }
}

main().catch((error: Error) => {
  log(error instanceof ConfigError ? error.message : `failed to start: ${error.stack ?? error.message}`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
