// The simulation service's figures, printed, never asserted. Called by bench/run.mjs, or
// alone: `node bench/server.mjs` (after `npm run build --workspace server`).
//
//   throughput  1000 small runs as one batch, with 1 and with 2 local worker processes: runs per
//               second from the first run's start to the last run's end (as PostgreSQL recorded
//               them), the ratio of the two, and where a run's time goes; for two sizes of run:
//               scheme-etcp (a few ms of simulation, less than tcpsim's process start-up) and
//               dumbbell-bulk cut to 5 simulated seconds (some 20 ms); beside it, the same runs
//               spawned without the queue by one loop and by two loops side by side, which is
//               what the (shared) machine gives two processes at that moment;
//   overhead    per run, the time through the queue with one worker minus the time of the same
//               run as a worker executes it (tcpsim spawned with the scenario on stdin), measured
//               by spawning it 1000 times in a row here;
//   latency     GET /api/experiments/:id with 200 concurrent connections (autocannon, 10 s):
//               requests per second, p50/p99 latency, errors and non-2xx answers.
//
// Everything runs against an embedded PostgreSQL in a temporary directory on loopback; the
// server's rate limit is raised for the run so that it measures the service, not the limiter.
// BENCH_SERVER_RUNS (default 1000; the larger runs use half), BENCH_SERVER_REPEATS (default 2:
// each worker count is measured that often, alternately, and its best kept) and
// BENCH_SERVER_SECONDS (default 10) scale it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = join(root, 'server/dist/src');
const tcpsim = process.env.TCPSIM ?? join(root, 'build/release/tcpsim');
const runs = Number(process.env.BENCH_SERVER_RUNS ?? 1000);
const seconds = Number(process.env.BENCH_SERVER_SECONDS ?? 10);
const repeats = Number(process.env.BENCH_SERVER_REPEATS ?? 2);
const fmt = (x, digits = 3) => Number(x).toPrecision(digits);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function json(response) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text}`);
  return JSON.parse(text);
}

function tcpsimOnce(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(tcpsim, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`tcpsim exit ${code}`))));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

async function startServer(databaseUrl, port, workers) {
  const child = spawn(process.execPath, [join(serverDist, 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKERS: String(workers),
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX: '100000000',
      RATE_LIMIT_RUNS_MAX: '100000',
      MAX_BATCH_RUNS: String(Math.max(100000, runs)),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (c) => {
      log += c;
      if (log.includes('listening on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${log}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; ++i) {
    const health = await json(await fetch(`${url}/api/health`)).catch(() => null);
    if (health && health.queue.workers >= workers) break;
    await sleep(100);
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function throughput(databaseUrl, pool, port, workers, scenario, runs) {
  const server = await startServer(databaseUrl, port, workers);
  try {
    const created = await json(
      await fetch(`${server.url}/api/batches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scenario, grid: {}, replications: runs, title: `bench ${workers} worker(s)` }),
      }),
    );
    for (;;) {
      const b = await json(await fetch(`${server.url}/api/batches/${created.id}`));
      if (b.status === 'completed' || b.status === 'failed') {
        if (b.counts.done !== runs) throw new Error(`batch ended ${b.status} with ${JSON.stringify(b.counts)}`);
        break;
      }
      await sleep(200);
    }
    const r = await pool.query(
      `SELECT extract(epoch FROM max(finished_at) - min(started_at))::float8 AS span,
              sum(wall_seconds)::float8 AS simulated
       FROM runs WHERE batch_id = $1`,
      [created.id],
    );
    // Where a run's time goes, per worker: from its claim to its result (the child process and
    // the result's UPDATE), and from one result to the next claim (the queue: completing the job,
    // fetching the next, claiming its run).
    const parts = await pool.query(
      `WITH r AS (
         SELECT worker_id, started_at, finished_at, wall_seconds,
                lag(finished_at) OVER (PARTITION BY worker_id ORDER BY started_at) AS previous
         FROM runs WHERE batch_id = $1)
       SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at))::float8 AS inside,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM started_at - previous))::float8 AS between
       FROM r`,
      [created.id],
    );
    return { span: r.rows[0].span, simulatedWall: r.rows[0].simulated, inside: parts.rows[0].inside, between: parts.rows[0].between };
  } finally {
    await server.stop();
  }
}

async function latency(databaseUrl, port) {
  const require = createRequire(join(root, 'server/package.json'));
  const autocannon = require('autocannon');
  const server = await startServer(databaseUrl, port, 0);
  try {
    const scenario = JSON.parse(await tcpsimOnce(['preset', 'scheme-etcp'], ''));
    const created = await json(
      await fetch(`${server.url}/api/experiments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scenario, title: 'bench' }),
      }),
    );
    const result = await autocannon({ url: `${server.url}/api/experiments/${created.id}`, connections: 200, duration: seconds });
    return result;
  } finally {
    await server.stop();
  }
}

export async function benchServer() {
  const { startEmbeddedPostgres, freePort } = await import(join(serverDist, 'db/embedded.js'));
  const { migrate } = await import(join(serverDist, 'db/migrate.js'));
  const { createPool } = await import(join(serverDist, 'db/pool.js'));
  const dir = mkdtempSync(join(tmpdir(), 'tcblab-bench-pg-'));
  const db = await startEmbeddedPostgres({ dir, database: 'tcblab_bench' });
  const pool = createPool(db.url, { max: 2 });
  try {
    await migrate(db.url);
    const etcp = JSON.parse(await tcpsimOnce(['preset', 'scheme-etcp'], ''));
    const bulk = { ...JSON.parse(await tcpsimOnce(['preset', 'dumbbell-bulk'], '')), durationS: 5 };
    const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
    for (const [label, scenario, count, overhead] of [
      ['scheme-etcp, trace none: a few ms of simulation', etcp, runs, true],
      ['dumbbell-bulk for 5 simulated s, trace none: some 20 ms of simulation', bulk, Math.ceil(runs / 2), false],
    ]) {
      console.log(`\n== server: ${count} runs through the queue (${label}; ${availableParallelism()} cores; best of ${repeats})`);
      console.log(`load average before (the machine is shared): ${load()}`);
      // The same runs without the queue, spawned like a worker spawns them, by one loop and by two
      // loops side by side: what this machine gives two processes right now, the ceiling of what
      // two workers can give.
      const input = JSON.stringify(scenario);
      const direct = async (loops) => {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: loops }, async (_, loop) => {
            for (let i = loop; i < count; i += loops) await tcpsimOnce(['run', '-', '--trace', 'none', '--stats', '--seed', String(1 + i)], input);
          }),
        );
        return (performance.now() - started) / 1000;
      };
      const direct1 = await direct(1);
      const direct2 = await direct(2);
      const directPerRun = (direct1 / count) * 1e3;
      // Alternating 1, 2, 2, 1 workers (BENCH_SERVER_REPEATS pairs) and keeping each one's best
      // span: on a shared machine the best is the measurement others disturbed least.
      const results = {};
      const order = Array.from({ length: repeats }, (_, i) => (i % 2 === 0 ? [1, 2] : [2, 1])).flat();
      for (const workers of order) {
        const r = await throughput(db.url, pool, await freePort(), workers, scenario, count);
        if (!results[workers] || r.span < results[workers].span) results[workers] = r;
      }
      for (const workers of [1, 2]) {
        const { span, simulatedWall, inside, between } = results[workers];
        console.log(
          `${workers} worker${workers > 1 ? 's' : ' '}: ${fmt(count / span)} runs/s  (${fmt(span)} s; per run, medians: simulation ${fmt((simulatedWall / count) * 1e3)} ms, claim to result ${fmt(inside * 1e3)} ms, result to next claim ${fmt(between * 1e3)} ms)`,
        );
      }
      const ratio = results[1].span / results[2].span;
      console.log(`2 workers / 1 worker                 : ${fmt(ratio)}x; target >= 1.8: ${ratio >= 1.8 ? 'met' : 'NOT met'}  (load average after: ${load()})`);
      console.log(`without the queue, 2 loops / 1 loop  : ${fmt(direct1 / direct2)}x (${fmt(count / direct1)} and ${fmt(count / direct2)} runs/s): the machine's own ceiling now`);
      console.log(`queue scaling / machine scaling      : ${fmt(ratio / (direct1 / direct2))}`);
      if (overhead) {
        const perRun = (results[1].span / count) * 1e3;
        const queueOverhead = perRun - directPerRun;
        console.log(`per run with 1 worker                : ${fmt(perRun)} ms through the queue, ${fmt(directPerRun)} ms spawning tcpsim directly`);
        console.log(`queue overhead per run               : ${fmt(queueOverhead)} ms; target < 5 ms: ${queueOverhead < 5 ? 'met' : 'NOT met'}`);
      }
    }

    console.log(`\n== server: GET /api/experiments/:id, 200 connections, ${seconds} s (autocannon)`);
    const r = await latency(db.url, await freePort());
    console.log(`requests per second                  : ${fmt(r.requests.average)}  (${r.requests.total} requests)`);
    console.log(`latency p50 / p99 / max              : ${r.latency.p50} / ${r.latency.p99} / ${r.latency.max} ms`);
    console.log(`errors / timeouts / non-2xx          : ${r.errors} / ${r.timeouts} / ${r.non2xx}; target 0 errors: ${r.errors + r.timeouts + r.non2xx === 0 ? 'met' : 'NOT met'}`);
  } finally {
    await pool.end();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchServer();
  process.exit(0);
}
