// Workers on other hosts: a worker started in a network namespace (another host, helpers/netns.ts)
// with DATABASE_URL pointing over its link joins the fleet; its link cut mid-batch and restored,
// the batch finishes with every run recorded once; cut for good, its runs are taken over by the
// workers that remain (queue/liveness.ts reaps it once its heartbeat is WORKER_DEAD_AFTER_MS old),
// and when it comes back its late results are discarded; cut off inside a transaction, its row
// locks go when it would be taken for dead.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createNetnsHost, netnsUnavailable, type NetnsHost } from './helpers/netns.js';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, startWorkerProcess, waitFor, type Proc, type TestServer } from './helpers/server.js';
import { preset, runNative } from './helpers/native.js';

const skip = netnsUnavailable() ?? (process.env.DATABASE_URL ? 'needs the embedded PostgreSQL, which listens on the test host\'s link (DATABASE_URL is set)' : false);

// Runs of a few tens of milliseconds: a batch of 40 or 100 (two jobs or more of 32, BATCH_JOB_RUNS)
// lasts seconds, long enough to be cut in the middle, and keeps both workers busy.
const scenario = { ...preset('dumbbell-bulk'), durationS: 5 };

// A link cut for 2 s delays a worker's packets by up to a few seconds more (TCP retransmits with
// backoff): it is taken for dead only after 6 s without a heartbeat.
const deadAfterMs = 6000;
const env = { WORKER_HEARTBEAT_MS: '300', WORKER_DEAD_AFTER_MS: String(deadAfterMs) };
const cutMs = 2000;

describe('a worker on another host', { skip }, () => {
  let host: NetnsHost;
  let db: TestDatabase;
  let server: TestServer;
  let local: Proc;
  let remote: Proc;
  const started: Proc[] = [];

  before(async () => {
    host = createNetnsHost();
    db = await startTestDatabase({ listenAddresses: [host.hostAddress], allowNetworks: [`${host.peerAddress}/32`] });
    server = await startServer(db.url, { ...env, WORKERS: '0' });
    [local, remote] = await Promise.all([startWorkerProcess(db.url, env), startWorkerProcess(db.embedded!.urlAt(host.hostAddress), env, host)]);
    started.push(server, local, remote);
  });

  after(async () => {
    for (const p of started) await p.kill();
    await db?.close();
    host?.remove();
  });

  const workerOf = (proc: Proc) => `:${proc.pid}:`;

  async function submit(replications: number): Promise<string> {
    const r = await post(`${server.url}/api/batches`, { scenario, grid: {}, replications });
    assert.equal(r.status, 202);
    return (await json(r)).id;
  }

  /** Waits until `proc` is running one of the batch's runs, and returns that run's id. */
  async function runningOn(id: string, proc: Proc): Promise<number> {
    return waitFor(
      `a run of batch ${id} in progress on worker ${proc.pid}`,
      async () => {
        const r = await db.query<{ id: number }>(
          `SELECT id FROM runs WHERE batch_id = $1 AND status = 'running' AND position($2 in worker_id) > 0 LIMIT 1`,
          [id, workerOf(proc)],
        );
        return r.rows[0]?.id;
      },
      60_000,
      20,
    );
  }

  async function completed(id: string): Promise<void> {
    const batch = await waitFor(
      `batch ${id} to complete`,
      async () => {
        const b = await json(await fetch(`${server.url}/api/batches/${id}`));
        return b.status === 'completed' || b.status === 'failed' ? b : undefined;
      },
      90_000,
      200,
    );
    assert.equal(batch.status, 'completed', JSON.stringify(batch.counts));
  }

  /** Every run done once, under its last claim, with tcpsim's result; no job left behind. */
  async function assertExactlyOnce(id: string, replications: number): Promise<Array<{ id: number; attempts: number; worker_id: string; result_hash: string }>> {
    const rows = await db.query<{ id: number; replication: number; status: string; attempts: number; worker_id: string; result_hash: string; seed: number }>(
      'SELECT id, replication, status, attempts, worker_id, result_hash, seed FROM runs WHERE batch_id = $1 ORDER BY replication',
      [id],
    );
    assert.deepEqual(rows.rows.map((r) => r.replication), Array.from({ length: replications }, (_, i) => i));
    assert.ok(rows.rows.every((r) => r.status === 'done' && r.result_hash), 'every run done');
    // A job is completed (deleted) by its worker after its last run is recorded, i.e. a moment
    // after the batch reads as completed: the queue must empty, not be empty at once.
    await waitFor('no job to be left behind', async () => {
      const jobs = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM graphile_worker.jobs');
      return jobs.rows[0].n === 0 ? true : undefined;
    }, 30_000, 100);
    for (const r of [rows.rows[0], rows.rows[rows.rows.length - 1]]) {
      assert.equal(r.result_hash, runNative(scenario, ['--seed', String(r.seed), '--trace', 'none']).resultHash);
    }
    return rows.rows;
  }

  test('joins the fleet over its link; its link cut mid-batch and restored: every run recorded once', async () => {
    const registered = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM workers');
    assert.equal(registered.rows[0].n, 2, 'both workers registered');
    const id = await submit(100);
    await runningOn(id, remote);
    host.cut();
    await new Promise((r) => setTimeout(r, cutMs));
    host.restore();
    await completed(id);
    const runs = await assertExactlyOnce(id, 100);
    assert.ok(runs.some((r) => r.worker_id.includes(workerOf(remote))), 'the remote worker recorded runs');
    assert.ok(runs.some((r) => r.worker_id.includes(workerOf(local))), 'the local worker recorded runs');
  });

  test('cut off for good, its runs are taken over; back again, its late results are discarded', async () => {
    const id = await submit(40);
    const stuck = await runningOn(id, remote);
    host.cut();
    await completed(id);
    const runs = await assertExactlyOnce(id, 40);
    const taken = runs.find((r) => r.id === stuck)!;
    assert.ok(taken.worker_id.includes(workerOf(local)), 'the run in progress on the cut-off worker was run again by the other');
    assert.ok(taken.attempts >= 2);
    const reaped = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM workers WHERE position($1 in id) > 0', [workerOf(remote)]);
    assert.equal(reaped.rows[0].n, 0, 'the cut-off worker was taken for dead');

    host.restore();
    // It comes back: registers again, and finds that the job it was running is no longer its own
    // (queue/run-task.ts: its claims and writes are fenced out).
    await waitFor('the remote worker to register again', async () => {
      const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM workers WHERE position($1 in id) > 0', [workerOf(remote)]);
      return r.rows[0].n === 1 ? true : undefined;
    }, 60_000, 100);
    await waitFor('the remote worker to give up its old job', async () => (readFileSync(remote.log, 'utf8').includes('no longer holds the job') ? true : undefined), 60_000, 100);
    const later = await db.query<{ id: number; attempts: number; worker_id: string; result_hash: string }>(
      'SELECT id, attempts, worker_id, result_hash FROM runs WHERE batch_id = $1 ORDER BY replication',
      [id],
    );
    assert.deepEqual(later.rows, runs.map(({ id, attempts, worker_id, result_hash }) => ({ id, attempts, worker_id, result_hash })), 'nothing recorded changed');
    const batch = await json(await fetch(`${server.url}/api/batches/${id}`));
    assert.deepEqual(batch.counts, { total: 40, done: 40, failed: 0, cancelled: 0, pending: 0, running: 0 });
    // And it works again: a new batch is shared by both.
    const next = await submit(40);
    await runningOn(next, remote);
    await completed(next);
    await assertExactlyOnce(next, 40);
  });

  test('cut off inside a transaction, a worker\'s row locks go when it would be taken for dead', async () => {
    // A worker's own pool (queue/worker.ts workerPool) on the other host opens a transaction and
    // locks a row, as a hand-back of runs does for a few milliseconds; then its link is cut.
    await db.query('CREATE TABLE IF NOT EXISTS lock_probe (id int PRIMARY KEY); INSERT INTO lock_probe VALUES (1) ON CONFLICT DO NOTHING');
    const workerModule = new URL('../src/queue/worker.js', import.meta.url).href;
    const holder = host.spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `const { workerPool } = await import(${JSON.stringify(workerModule)});
       const client = await workerPool(process.env.DATABASE_URL, 1, ${deadAfterMs}, () => {}).connect();
       await client.query('BEGIN');
       await client.query('SELECT id FROM lock_probe WHERE id = 1 FOR UPDATE');
       console.log('locked');
       setInterval(() => {}, 1000);`,
    ], { env: { ...process.env, DATABASE_URL: db.embedded!.urlAt(host.hostAddress) }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
      });
      host.cut();
      const started = performance.now();
      // Without the session timeout this would wait until PostgreSQL noticed the connection was
      // gone: the statement timeout would end it first.
      await db.query(`SET statement_timeout = ${3 * deadAfterMs}; UPDATE lock_probe SET id = 1 WHERE id = 1; RESET statement_timeout`);
      const waitedMs = performance.now() - started;
      assert.ok(waitedMs > deadAfterMs / 2, `the row was locked across the cut (waited ${waitedMs.toFixed(0)} ms)`);
    } finally {
      host.restore();
      holder.kill('SIGKILL');
    }
  });
});
