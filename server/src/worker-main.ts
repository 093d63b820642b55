// `npm run worker`: one worker process against DATABASE_URL, on this machine or any other. It runs
// the native tcpsim (TCPSIM, default build/release/tcpsim) as persistent `tcpsim serve` processes
// (WORKER_RUNNER=spawn: a process per run) or, when the binary is missing, the WASM build. If its
// runners fail (e.g. the database went away), it starts them again.
import { ConfigError, loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { createWorkerEngine } from './sim/serve.js';
import { startWorker, type RunningWorker } from './queue/worker.js';
import { lowerPriority } from './priority.js';

const log = (message: string) => console.error(`[worker ${process.pid}] ${message}`);

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError('DATABASE_URL is not set: a worker needs the PostgreSQL of the server it works for (npm start runs local workers itself)');
  }
  const databaseUrl = config.databaseUrl;
  // Batch work yields the processor to the API and PostgreSQL; the simulators inherit this.
  lowerPriority(config.workerNice);
  let current: RunningWorker | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await current?.stop().catch((e: Error) => log(`stopping: ${e.message}`));
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  // Started by `npm start`: leave when the server does, however it ended.
  if (process.send) process.on('disconnect', () => void shutdown(0));

  for (let delay = 1000; !stopping; delay = Math.min(delay * 2, 30_000)) {
    try {
      await migrate(databaseUrl, log);
      const engine = await createWorkerEngine(config.tcpsimPath, config.workerConcurrency, config.workerRunner, { memoryMb: config.limits.runMemoryMb });
      current = await startWorker({
        databaseUrl,
        concurrency: config.workerConcurrency,
        engine,
        runTimeoutMs: config.limits.runTimeoutS * 1000,
        heartbeatMs: config.heartbeatMs,
        deadAfterMs: config.workerDeadAfterMs,
        log,
      });
      process.send?.({ type: 'ready', id: current.id });
      delay = 1000;
      await current.done;
      if (stopping) return;
      log('the runners stopped; starting again');
    } catch (error) {
      if (error instanceof ConfigError || stopping) throw error;
      log(`${(error as Error).message}; trying again in ${delay / 1000} s`);
    }
    await current?.stop().catch(() => {});
    current = undefined;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

main().catch((error: Error) => {
  log(error instanceof ConfigError ? error.message : `failed: ${error.stack ?? error.message}`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
