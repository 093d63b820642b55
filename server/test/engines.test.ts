// Workers without the native binary run the WASM build and record the same results; a job of runs
// longer than a worker may keep them is handed back and spread over the workers; a run over the
// per-run time limit is stopped and fails, and the batch says so; a synchronous run over its
// wall-time limit is a 422 naming the limit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, startWorkerProcess, waitFor, type Proc } from './helpers/server.js';
import { preset, runNative } from './helpers/native.js';
import { cutIntoJobs } from '../src/queue/jobs.js';

let db: TestDatabase;
const started: Proc[] = [];

before(async () => {
  db = await startTestDatabase();
});

after(async () => {
  for (const p of started) await p.kill();
  await db?.close();
});

async function finished(url: string, id: string): Promise<any> {
  return waitFor(`batch ${id}`, async () => {
    const b = await json(await fetch(`${url}/api/batches/${id}`));
    return ['completed', 'failed'].includes(b.status) ? b : undefined;
  });
}

test('a worker without tcpsim runs the WASM build, with the same results', async () => {
  const server = await startServer(db.url, { WORKERS: '0' });
  const worker = await startWorkerProcess(db.url, { TCPSIM: '/nonexistent/tcpsim' });
  started.push(server, worker);
  const scenario = preset('scheme-etcp');
  const created = await json(await post(`${server.url}/api/batches`, { scenario, grid: { '/tcp/flavor': ['reno', 'sack'] }, replications: 2 }));
  const batch = await finished(server.url, created.id);
  assert.equal(batch.status, 'completed');
  const rows = await db.query<{ engine: string; seed: number; result_hash: string; point_index: number }>(
    'SELECT engine, seed, result_hash, point_index FROM runs WHERE batch_id = $1 ORDER BY id',
    [created.id],
  );
  assert.equal(rows.rows.length, 4);
  for (const row of rows.rows) {
    assert.equal(row.engine, 'wasm');
    const s = structuredClone(scenario);
    s.tcp.flavor = row.point_index === 0 ? 'reno' : 'sack';
    assert.equal(row.result_hash, runNative(s, ['--seed', String(row.seed), '--trace', 'none']).resultHash);
  }
  await worker.stop();
  await server.stop();
});

test('a sweep of many points with one replication each is queued as jobs that span points, claimed in groups, each run with its own point', async () => {
  const server = await startServer(db.url, { WORKERS: '0' });
  started.push(server);
  const scenario = preset('scheme-etcp');
  const durations = Array.from({ length: 120 }, (_, i) => 1 + i / 12);
  const created = await json(await post(`${server.url}/api/batches`, { scenario, grid: { '/durationS': durations }, replications: 1 }));
  // 120 runs of 120 points: jobs of consecutive points as jobSizes cuts them (BATCH_JOB_RUNS is
  // 32: 15, 14, 12, ... 4, 4), not one per point.
  const jobs = await db.query<{ points: number[] }>(
    'SELECT array_agg(point_index ORDER BY id) AS points FROM runs WHERE batch_id = $1 GROUP BY job_id ORDER BY min(id)',
    [created.id],
  );
  assert.deepEqual(jobs.rows.map((j) => j.points), cutIntoJobs(durations.map((_, i) => i), 32));
  assert.equal(jobs.rows[0].points.length, 15);
  const worker = await startWorkerProcess(db.url);
  started.push(worker);
  const batch = await finished(server.url, created.id);
  assert.equal(batch.status, 'completed');
  const rows = await db.query<{ seed: number; result_hash: string; point_index: number; attempts: number; started_at: Date; job_id: number }>(
    'SELECT seed, result_hash, point_index, attempts, started_at, job_id FROM runs WHERE batch_id = $1 ORDER BY id',
    [created.id],
  );
  assert.equal(rows.rows.length, 120);
  for (const row of rows.rows) {
    assert.equal(row.attempts, 1);
    assert.equal(row.result_hash, runNative({ ...scenario, durationS: durations[row.point_index] }, ['--seed', String(row.seed), '--trace', 'none']).resultHash);
  }
  // The first job's first run is claimed alone (nothing of the batch has run on this worker yet);
  // the points after it are expected to take a few times its time, and go in a few claims, not
  // one each (a claim stamps its runs' started_at with one transaction time).
  const first = rows.rows.filter((r) => r.point_index < 15);
  const claims = new Set(first.map((r) => r.started_at.getTime())).size;
  assert.ok(claims >= 2 && claims <= 5, `the first job's 15 runs went in ${claims} claims`);
  // One worker takes the jobs in the order the batch's runs are in (queue/jobs.ts addJobs), so
  // that the small jobs come last.
  rows.rows.forEach((row, i) => i === 0 || assert.ok(row.started_at >= rows.rows[i - 1].started_at, `run ${i} started before run ${i - 1}`));
  await worker.stop();
  await server.stop();
});

test('a job whose runs take longer than a worker may keep them is handed back, and both workers run them', async () => {
  const server = await startServer(db.url, { WORKERS: '0' });
  const a = await startWorkerProcess(db.url);
  const b = await startWorkerProcess(db.url);
  started.push(server, a, b);
  // Four runs of half a second or so: one job (BATCH_JOB_RUNS is 32), which one worker fetches
  // and may keep for a second (groupBudgetMs in queue/run-task.ts).
  const scenario = { ...preset('dumbbell-bulk'), durationS: 120 };
  const created = await json(await post(`${server.url}/api/batches`, { scenario, grid: {}, replications: 4 }));
  const batch = await finished(server.url, created.id);
  assert.equal(batch.status, 'completed');
  const rows = await db.query<{ worker_id: string; job_id: number; attempts: number }>('SELECT worker_id, job_id, attempts FROM runs WHERE batch_id = $1', [created.id]);
  assert.ok(rows.rows.every((r) => r.attempts === 1), 'each run ran once');
  assert.ok(new Set(rows.rows.map((r) => r.job_id)).size > 1, 'runs went back to the queue as jobs of their own');
  const pids = new Set(rows.rows.map((r) => Number(r.worker_id.split(':')[1])));
  assert.deepEqual([...pids].sort(), [a.pid, b.pid].sort(), 'both workers ran some');
  await Promise.all([a.stop(), b.stop()]);
  await server.stop();
});

test('a run over RUN_TIMEOUT_S is stopped and fails with the limit named', async () => {
  const server = await startServer(db.url, { WORKERS: '0' });
  const worker = await startWorkerProcess(db.url, { RUN_TIMEOUT_S: '0.05' });
  started.push(server, worker);
  const created = await json(await post(`${server.url}/api/batches`, { scenario: preset('dumbbell-bulk'), grid: {}, replications: 1 }));
  const batch = await finished(server.url, created.id);
  assert.equal(batch.status, 'failed');
  assert.deepEqual(batch.counts, { total: 1, done: 0, failed: 1, cancelled: 0, pending: 0, running: 0 });
  const results = await json(await fetch(`${server.url}/api/batches/${created.id}/results`));
  assert.equal(results[0].status, 'failed');
  assert.match(results[0].error, /time limit of 0\.05 s \(RUN_TIMEOUT_S\)/);
  assert.equal(results[0].resultHash, null);
  await worker.stop();
  await server.stop();
});

test('a synchronous run over SYNC_TIMEOUT_S is a 422 naming the limit, and says to submit a batch', async () => {
  const server = await startServer(db.url, { WORKERS: '0', SYNC_TIMEOUT_S: '0.05' });
  started.push(server);
  const response = await post(`${server.url}/api/runs`, { scenario: { ...preset('dumbbell-bulk'), durationS: 60 }, trace: 'none' });
  const body = (await response.json()) as { limit: string; value: number; error: string };
  assert.equal(response.status, 422, JSON.stringify(body));
  assert.equal(body.limit, 'SYNC_TIMEOUT_S');
  assert.equal(body.value, 0.05);
  assert.match(body.error, /POST \/api\/batches/);
  assert.equal((await fetch(`${server.url}/api/health`)).status, 200, 'the server goes on answering');
  await server.stop();
});
