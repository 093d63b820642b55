// Faults: a worker killed mid-run (its simulator with it), a worker killed in the middle of a group
// of runs, the whole service killed with a batch pending, PostgreSQL stopped for a while, and npm
// start's embedded PostgreSQL killed under load (the service starts it again). Each time the batch must
// complete with every run recorded exactly once, and the results must be the simulator's.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, startWorkerProcess, waitFor, type Proc, type TestServer } from './helpers/server.js';
import { preset, runNative } from './helpers/native.js';
import { descendants, running, simulatorsOf } from './helpers/processes.js';

let db: TestDatabase;
const started: Proc[] = [];

before(async () => {
  db = await startTestDatabase();
});

after(async () => {
  for (const p of started) await p.kill();
  await db?.close();
});

// Runs long enough (a few tenths of a second each) to be caught in the middle.
const slow = { ...preset('dumbbell-bulk'), durationS: 30 };

async function batchOf(server: TestServer, replications: number, scenario: Record<string, unknown> = slow): Promise<string> {
  const r = await post(`${server.url}/api/batches`, { scenario, grid: {}, replications });
  assert.equal(r.status, 202);
  return (await json(r)).id;
}

async function waitCompleted(server: TestServer, id: string, timeoutMs = 90_000): Promise<any> {
  return waitFor(
    `batch ${id} to complete`,
    async () => {
      const b = await json(await fetch(`${server.url}/api/batches/${id}`));
      return b.status === 'completed' || b.status === 'failed' ? b : undefined;
    },
    timeoutMs,
    200,
  ).catch(async (error) => {
    // What the queue looked like, for the failure's report.
    console.log('runs', (await db.query('SELECT id, status, attempts, worker_id, job_id, error FROM runs WHERE batch_id = $1', [id])).rows);
    console.log('jobs', (await db.query('SELECT id, locked_by, locked_at, attempts, run_at, last_error FROM graphile_worker.jobs')).rows);
    console.log('workers', (await db.query('SELECT * FROM workers')).rows);
    console.log('sessions', (await db.query(`SELECT pid, state, left(query, 120) AS query, backend_start FROM pg_stat_activity WHERE datname = current_database()`)).rows);
    console.log('server log', server.log);
    throw error;
  });
}

/** Every run of the batch is done exactly once, with tcpsim's result for its seed. */
async function assertExactlyOnce(server: TestServer, id: string, replications: number, scenario: Record<string, unknown> = slow): Promise<void> {
  const batch = await json(await fetch(`${server.url}/api/batches/${id}`));
  assert.equal(batch.status, 'completed');
  assert.deepEqual(batch.counts, { total: replications, done: replications, failed: 0, cancelled: 0, pending: 0, running: 0 });
  const rows = await db.query<{ replication: number; status: string; result_hash: string; seed: number }>(
    'SELECT replication, status, result_hash, seed FROM runs WHERE batch_id = $1 ORDER BY replication',
    [id],
  );
  assert.deepEqual(rows.rows.map((r) => r.replication), Array.from({ length: replications }, (_, i) => i));
  assert.ok(rows.rows.every((r) => r.status === 'done' && r.result_hash));
  const jobs = await db.query('SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id IN (SELECT job_id FROM runs WHERE batch_id = $1)', [id]);
  assert.equal(jobs.rows[0].n, 0, 'no job is left behind');
  const check = rows.rows[rows.rows.length - 1];
  assert.equal(check.result_hash, runNative(scenario, ['--seed', String(check.seed), '--trace', 'none']).resultHash);
}

/** Kills (SIGKILL) whichever of two workers a run's worker_id (host:pid:id) names; returns the other. */
async function killWorkerOf(workerId: string, a: Proc, b: Proc): Promise<{ pid: number; survivor: Proc }> {
  const pid = Number(workerId.split(':')[1]);
  assert.ok(pid === a.pid || pid === b.pid, `the run's worker ${workerId} is one of ours`);
  process.kill(pid, 'SIGKILL');
  await (pid === a.pid ? a : b).exited;
  return { pid, survivor: pid === a.pid ? b : a };
}

test('a worker killed by its pid mid-run: its simulator ends with it, and its run is retried elsewhere and recorded once', async () => {
  const server = await startServer(db.url, { WORKERS: '0' });
  started.push(server);
  const a = await startWorkerProcess(db.url);
  const b = await startWorkerProcess(db.url);
  started.push(a, b);
  const id = await batchOf(server, 10);

  // Wait until one of the two workers is in the middle of a run, its simulator running as its child
  // (a run is marked running when it is claimed, a moment before the worker's tcpsim serve, started
  // through prlimit, is tcpsim), then kill that process.
  const { victim, simulators } = await waitFor(
    'a run in progress in a simulator',
    async () => {
      const r = await db.query<{ id: number; worker_id: string }>(`SELECT id, worker_id FROM runs WHERE batch_id = $1 AND status = 'running' LIMIT 1`, [id]);
      const run = r.rows[0];
      const simulators = run ? simulatorsOf(Number(run.worker_id.split(':')[1])) : [];
      return simulators.length > 0 ? { victim: run, simulators } : undefined;
    },
    60_000,
    20,
  );
  // Its simulator dies with it (tcpsim --parent-pid: PR_SET_PDEATHSIG), rather than running on
  // under PID 1 with nobody to read its answers.
  const { pid, survivor } = await killWorkerOf(victim.worker_id, a, b);
  await waitFor('the killed worker\'s simulators to end', async () => (simulators.some(running) ? undefined : true), 30_000, 50);

  await waitCompleted(server, id);
  await assertExactlyOnce(server, id, 10);
  const retried = await db.query<{ attempts: number; status: string }>('SELECT attempts, status FROM runs WHERE id = $1', [victim.id]);
  assert.equal(retried.rows[0].status, 'done');
  assert.equal(retried.rows[0].attempts, 2, 'the killed run ran again, once');
  const workers = await db.query<{ pid: number }>('SELECT pid FROM workers');
  assert.ok(!workers.rows.some((w) => w.pid === pid), 'the dead worker was deregistered');
  await survivor.stop();
  await server.stop();
});

test('a worker killed in the middle of a group of runs: the runs it recorded stay, the rest run once elsewhere', async () => {
  // Runs of some tens of milliseconds: a job's 32 runs are claimed in groups and take a second or so.
  const short = { ...preset('dumbbell-bulk'), durationS: 6 };
  const server = await startServer(db.url, { WORKERS: '0' });
  started.push(server);
  const a = await startWorkerProcess(db.url);
  const b = await startWorkerProcess(db.url);
  started.push(a, b);
  const id = await batchOf(server, 96, short);

  // A worker that has recorded some runs of a job and is running another of the same job.
  const victim = await waitFor(
    'a worker in the middle of a group',
    async () => {
      const r = await db.query<{ worker_id: string; job_id: number }>(
        `SELECT worker_id, job_id FROM runs WHERE batch_id = $1 AND worker_id IS NOT NULL
         GROUP BY worker_id, job_id
         HAVING count(*) FILTER (WHERE status = 'done') > 0 AND count(*) FILTER (WHERE status = 'running') > 0
         LIMIT 1`,
        [id],
      );
      return r.rows[0];
    },
    60_000,
    10,
  );
  const { survivor } = await killWorkerOf(victim.worker_id, a, b);
  // What the dead worker recorded, and what it left running.
  const before = await db.query<{ id: number; status: string; attempts: number; result_hash: string | null; finished_at: Date | null }>(
    `SELECT id, status, attempts, result_hash, finished_at FROM runs WHERE batch_id = $1 AND worker_id = $2 ORDER BY id`,
    [id, victim.worker_id],
  );
  const recorded = before.rows.filter((r) => r.status === 'done');
  const interrupted = before.rows.filter((r) => r.status === 'running');
  assert.ok(recorded.length > 0 && interrupted.length > 0);

  await waitCompleted(server, id);
  await assertExactlyOnce(server, id, 96, short);
  const after = await db.query<{ id: number; status: string; attempts: number; result_hash: string | null; finished_at: Date | null; worker_id: string }>(
    'SELECT id, status, attempts, result_hash, finished_at, worker_id FROM runs WHERE id = ANY($1::bigint[]) ORDER BY id',
    [before.rows.map((r) => r.id)],
  );
  const byId = new Map(after.rows.map((r) => [r.id, r]));
  for (const r of recorded) {
    const now = byId.get(r.id)!;
    assert.deepEqual([now.worker_id, now.attempts, now.result_hash, now.finished_at], [victim.worker_id, r.attempts, r.result_hash, r.finished_at], `run ${r.id} recorded before the kill stays as it was`);
  }
  for (const r of interrupted) {
    const now = byId.get(r.id)!;
    assert.equal(now.status, 'done');
    assert.equal(now.attempts, r.attempts + 1, `run ${r.id}, interrupted, ran again once`);
    assert.notEqual(now.worker_id, victim.worker_id);
  }
  await survivor.stop();
  await server.stop();
});

test('the service killed with a batch pending: after a restart the batch completes', async () => {
  const first = await startServer(db.url, { WORKERS: '1' });
  started.push(first);
  const id = await batchOf(first, 8);
  await waitFor(
    'a finished run',
    async () => ((await json(await fetch(`${first.url}/api/batches/${id}`))).counts.done > 0 ? true : undefined),
    60_000,
    20,
  );
  await first.kill(); // SIGKILL to the server, its worker and the worker's tcpsim.
  await assert.rejects(fetch(`http://127.0.0.1:${first.port}/api/health`), 'the first server is gone');
  const pending = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE batch_id = $1 AND status IN ('pending', 'running')`, [id]);
  assert.ok(pending.rows[0].n > 0, 'runs were left unfinished');

  const second = await startServer(db.url, { WORKERS: '1' });
  started.push(second);
  await waitCompleted(second, id);
  await assertExactlyOnce(second, id, 8);
  await second.stop();
});

test('PostgreSQL stopped for a while: health says so, and the service recovers', { skip: !process.env.DATABASE_URL ? false : 'needs the embedded PostgreSQL (DATABASE_URL is set)' }, async () => {
  const server = await startServer(db.url, { WORKERS: '1' });
  started.push(server);
  const healthy = await fetch(`${server.url}/api/health`);
  assert.equal(healthy.status, 200);

  await db.embedded!.stop();
  const down = await fetch(`${server.url}/api/health`);
  assert.equal(down.status, 503);
  const body = await json(down);
  assert.equal(body.status, 'degraded');
  assert.equal(body.database.ok, false);
  assert.equal(typeof body.database.error, 'string');
  // What failed in general words, never where the database listens.
  assert.doesNotMatch(JSON.stringify(body), /127\.0\.0\.1|localhost|:\d{2,5}\b/);
  // Other routes fail cleanly meanwhile.
  const e = await fetch(`${server.url}/api/batches/AAAAAAAAAAAAAAAAAAAAAA`);
  assert.equal(e.status, 503);
  assert.match((await json(e)).error, /database/);

  await db.embedded!.start();
  await waitFor('health to recover', async () => ((await fetch(`${server.url}/api/health`)).status === 200 ? true : undefined), 60_000, 200);
  const id = await batchOf(server, 3);
  await waitCompleted(server, id, 30_000);
  await assertExactlyOnce(server, id, 3);
  await server.stop();
});

test('the embedded PostgreSQL killed under load: the service starts it again, and no run is lost or recorded twice', { skip: process.env.DATABASE_URL ? 'uses the embedded PostgreSQL of npm start (DATABASE_URL is set)' : false }, async () => {
  // npm start's own PostgreSQL, in a data directory of this test's.
  const dataDir = mkdtempSync(join(tmpdir(), 'tcblab-supervised-'));
  chmodSync(dataDir, 0o755); // Reachable for the postgres user when the tests run as root.
  const pidFile = join(dataDir, 'postgres', 'cluster', 'postmaster.pid');
  const postmasterPid = () => Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const server = await startServer('', { WORKERS: '1', DATA_DIR: dataDir });
  started.push(server);
  const scenario = { ...preset('dumbbell-bulk'), durationS: 6 };
  try {
    const id = await batchOf(server, 40, scenario);
    await waitFor('runs under way', async () => ((await json(await fetch(`${server.url}/api/batches/${id}`))).counts.done > 0 ? true : undefined), 60_000, 20);
    const killed = postmasterPid();
    assert.ok(descendants(server.pid).includes(killed), 'the postmaster is the one this test\'s server started');
    process.kill(killed, 'SIGKILL');
    await waitFor('PostgreSQL to be started again', async () => (existsSync(pidFile) && postmasterPid() !== killed && running(postmasterPid()) ? true : undefined), 60_000, 100);
    await waitFor('health to recover', async () => ((await fetch(`${server.url}/api/health`)).status === 200 ? true : undefined), 60_000, 100);

    const batch = await waitFor('the batch to finish', async () => {
      const b = await json(await fetch(`${server.url}/api/batches/${id}`));
      return b.status === 'completed' || b.status === 'failed' ? b : undefined;
    }, 120_000, 200);
    assert.deepEqual(batch.counts, { total: 40, done: 40, failed: 0, cancelled: 0, pending: 0, running: 0 });
    const results = await json(await fetch(`${server.url}/api/batches/${id}/results`));
    assert.deepEqual(results.map((r: { replication: number }) => r.replication), Array.from({ length: 40 }, (_, i) => i), 'each run once');
    assert.ok(results.every((r: { status: string }) => r.status === 'done'));
    const last = results[results.length - 1];
    assert.equal(last.resultHash, runNative(scenario, ['--seed', String(last.seed), '--trace', 'none']).resultHash);
    await server.stop();
  } finally {
    // Started in a process group of its own (main.ts): a failed test must not leave it running.
    if (existsSync(pidFile) && running(postmasterPid())) process.kill(postmasterPid(), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
