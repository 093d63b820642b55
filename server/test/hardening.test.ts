// What no single request may do to the service (docs/SECURITY.md): every run bounded in memory by
// the simulator's own account and by an address-space limit, and a run that died of its limit
// failed, not retried; results that the service computed, or marked as not; budgets in work units
// for every request that queues work, reproductions and custom experiments included; results
// downloads from a small pool of their own, a few per client, cut when they stall; health that
// counts every kind of queued work; and the small ones: deep JSON, NUL in an id, Retry-After on
// every 429. Two servers: one with two workers and small memory limits, one without workers (its
// work stays queued) and small budgets. Every simulator these tests start runs under RLIMIT_AS (the
// service's own limits, server/src/sim/spawn.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, waitFor, type TestServer } from './helpers/server.js';
import { preset, runNative } from './helpers/native.js';
import { running, simulatorsOf } from './helpers/processes.js';
import { flood as floodOf, tiny } from './helpers/scenarios.js';
import { createPool } from '../src/db/pool.js';
import { runCost } from '../src/sim/cost.js';

let db: TestDatabase;
/** The queue of the server without workers: a database of its own, so that no worker takes its work. */
let queuedDb: TestDatabase;
let working: TestServer;
let queued: TestServer;

/** The flood, its queue's cap raised to its maximum: it grows until the run's memory limit stops it. */
const flood = floodOf(2, 100_000_000);

before(async () => {
  [db, queuedDb] = await Promise.all([startTestDatabase(), startTestDatabase()]);
  [working, queued] = await Promise.all([
    startServer(db.url, { WORKERS: '2', MAX_RUN_MEMORY_MB: '64', SYNC_MAX_MEMORY_MB: '32', SYNC_MAX_DURATION_S: '5' }),
    startServer(queuedDb.url, {
      WORKERS: '0',
      CLIENT_BUDGET: '1000000',
      QUEUE_BUDGET: '400000',
      EXPORTS_PER_CLIENT: '1',
      EXPORT_CONNECTIONS: '2',
      EXPORT_IDLE_TIMEOUT_S: '1',
    }),
  ]);
});

after(async () => {
  await working?.stop();
  await queued?.stop();
  await db?.close();
  await queuedDb?.close();
});

/** An experiment document of `replications` runs of `scenario`, one variant. */
function customExperiment(scenario: Record<string, unknown>, replications: number) {
  return { schemaVersion: 1, name: 'custom', scenario, variants: [{ name: 'as-is' }], replications, metrics: [{ name: 'events', pointer: '/run/events' }] };
}

async function expectError(response: Response, status: number): Promise<Record<string, any>> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  if (status === 429) assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/, 'every 429 has Retry-After');
  return JSON.parse(text);
}

describe('memory', () => {
  test('a synchronous run over its memory limit is a 422 naming the limit and what grew', async () => {
    const e = await expectError(await post(`${working.url}/api/runs`, { scenario: flood }), 422);
    assert.equal(e.limit, 'SYNC_MAX_MEMORY_MB');
    assert.equal(e.value, 32);
    assert.match(e.error, /memory limit of 32\.0 MiB .*link path:server>client holds \d+ packets/);
  });

  test('a batch run over its memory limit fails once, for good, naming the limit', async () => {
    const r = await post(`${working.url}/api/batches`, { scenario: flood, grid: {}, replications: 2 });
    assert.equal(r.status, 202);
    const { id } = await json(r);
    const batch = await waitFor('the batch to end', async () => {
      const b = await json(await fetch(`${working.url}/api/batches/${id}`));
      return b.counts.pending === 0 ? b : undefined;
    });
    assert.equal(batch.status, 'failed');
    const runs = await db.query<{ attempts: number; error: string }>('SELECT attempts, error FROM runs WHERE batch_id = $1', [id]);
    for (const run of runs.rows) {
      assert.equal(run.attempts, 1, 'not retried');
      assert.match(run.error, /memory limit of 64\.0 MiB.*link path:server>client holds .*\(MAX_RUN_MEMORY_MB\)$/);
    }
  });
});

describe('saved experiments', () => {
  // Longer than SYNC_MAX_DURATION_S (5 s here): checked by a run on the queue.
  const long = { ...preset('spand-single-30k'), durationS: 8 };

  test('a long scenario with its result: pending, then verified by a run on the queue', async () => {
    // (While the check waits, the claim is served beside no result: see "health counts every kind of
    // work", where no worker takes it.)
    const result = runNative(long);
    const created = await json(await post(`${working.url}/api/experiments`, { scenario: long, result }));
    assert.deepEqual([created.verified, created.verification, created.resultHash], [false, 'pending', null]);
    const done = await waitFor('the check', async () => {
      const e = await json(await fetch(`${working.url}/api/experiments/${created.id}`));
      return e.verification === 'pending' ? undefined : e;
    });
    assert.deepEqual([done.verified, done.verification, done.resultHash, done.claimedResult], [true, 'verified', result.resultHash, null]);
    assert.deepEqual(done.result, result);
  });

  test('forged numbers under a copied resultHash are stored unverified, the claim beside the service\'s result', async () => {
    const result = runNative(long);
    const forged = structuredClone(result);
    forged.run.meanCompletionTimeS = -1; // A negative completion time, and the real hash.
    const created = await json(await post(`${working.url}/api/experiments`, { scenario: long, result: forged }));
    assert.equal(created.verified, false);
    const done = await waitFor('the check', async () => {
      const e = await json(await fetch(`${working.url}/api/experiments/${created.id}`));
      return e.verification === 'pending' ? undefined : e;
    });
    assert.equal(done.verification, 'differs');
    assert.equal(done.verified, false);
    assert.deepEqual(done.result, result, "the service's own numbers");
    assert.deepEqual(done.claimedResult, forged, 'the claim beside them');
    assert.match(done.verificationError, /^\$\.claimedResult\.run\.meanCompletionTimeS: /);
  });
});

describe('budgets', () => {
  test('a run costs its simulated seconds times its sources in steps of 10 Mb/s', () => {
    assert.equal(runCost(tiny), 1);
    assert.equal(runCost({ ...tiny, durationS: 30 }), 30);
    // spand-single-30k: six clients (count 6) over 10 Mb/s access links.
    assert.equal(runCost({ ...preset('spand-single-30k'), durationS: 1 }), 6);
    // The flood: one UDP source at 100 Gb/s, 10000 steps, for 2 s.
    assert.equal(runCost(flood), 20_000);
  });

  test('a custom experiment of 100,000 replications of a heavy scenario is refused, naming the budget', async () => {
    const experiment = customExperiment({ ...flood, durationS: 300 }, 100_000);
    const e = await expectError(await post(`${queued.url}/api/reproductions`, { experiment }), 413);
    assert.equal(e.limit, 'CLIENT_BUDGET');
    assert.ok(e.size > e.value);
  });

  test('work beyond the queue budget waits (429, Retry-After), and so does a client past its own budget', async () => {
    // 300 runs of 1000 work units: 300,000 each. QUEUE_BUDGET 400,000, CLIENT_BUDGET 1,000,000.
    const submit = () => post(`${queued.url}/api/batches`, { scenario: { ...tiny, durationS: 1000 }, grid: {}, replications: 300 });
    const cancel = async (response: Response) => {
      const { id } = await json(response);
      assert.equal((await fetch(`${queued.url}/api/batches/${id}`, { method: 'DELETE' })).status, 200);
    };
    const a = await submit();
    assert.equal(a.status, 202);
    const full = await expectError(await submit(), 429);
    assert.equal(full.limit, 'QUEUE_BUDGET');
    assert.equal(full.size, 300_000);
    // Cancelled work leaves the queue, but stays spent by its client.
    await cancel(a);
    const c = await submit();
    assert.equal(c.status, 202, 'the queue has room again (600,000 spent)');
    await cancel(c);
    const d = await submit();
    assert.equal(d.status, 202, '900,000 spent');
    await cancel(d);
    const spent = await expectError(await submit(), 429);
    assert.equal(spent.limit, 'CLIENT_BUDGET');
    assert.equal(spent.used, 900_000);
    // The client's oldest request leaves its window in about CLIENT_BUDGET_WINDOW_S (3600 s).
    assert.ok(spent.error.includes('retry in'));
  });

  test('health counts every kind of work waiting with no worker: a reproduction\'s runs and a saved experiment\'s check', async () => {
    const before = (await json(await fetch(`${queued.url}/api/health`))).queue;
    const r = await post(`${queued.url}/api/reproductions`, { experiment: customExperiment(tiny, 3) });
    assert.equal(r.status, 202, await r.clone().text());
    // Longer than SYNC_MAX_DURATION_S (300 s): its result is checked by a run on the queue.
    const long = { ...tiny, durationS: 400 };
    const claim = runNative(long);
    const saved = await post(`${queued.url}/api/experiments`, { scenario: long, result: claim });
    assert.equal(saved.status, 201, await saved.clone().text());
    const created = await json(saved);
    assert.deepEqual([created.verified, created.verification, created.resultHash], [false, 'pending', null]);
    // While the check waits, the claim is served beside no result of the service's.
    const pending = await json(await fetch(`${queued.url}/api/experiments/${created.id}`));
    assert.deepEqual([pending.verified, pending.verification, pending.result], [false, 'pending', null]);
    assert.deepEqual(pending.claimedResult, claim);
    const health = await fetch(`${queued.url}/api/health`);
    assert.equal(health.status, 503, 'work waits and no worker is alive');
    const body = await json(health);
    const { kinds } = body.queue;
    assert.equal(kinds.reproductions.pending - (before.kinds?.reproductions.pending ?? 0), 3);
    assert.equal(kinds.experiments.pending - (before.kinds?.experiments.pending ?? 0), 1);
    assert.equal(body.queue.pending, kinds.batches.pending + kinds.reproductions.pending + kinds.experiments.pending);
    assert.match(body.queue.error, /runs wait and no worker is alive/);
  });
});

describe('results downloads', () => {
  /**
   * Opens a results download and reads nothing: the server's writes stall once the socket is full.
   * From `localAddress`, another client as the server counts them (any 127.0.0.0/8 address reaches
   * its loopback port).
   */
  function stalledDownload(url: string, localAddress = '127.0.0.1'): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { localAddress }, (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  }

  // (Bounded: a download that is never cut would otherwise keep the test waiting.)
  test('a client may have EXPORTS_PER_CLIENT open; one that stalls is cut after EXPORT_IDLE_TIMEOUT_S, and the API answers meanwhile', { timeout: 120_000 }, async () => {
    // 100,000 rows (some 15 MB of JSON): more than the sockets and streams between hold.
    const r = await post(`${queued.url}/api/batches`, { scenario: { ...tiny, durationS: 0.01 }, grid: {}, replications: 100_000 });
    assert.equal(r.status, 202, await r.clone().text());
    const { id } = await json(r);
    const stalled = await stalledDownload(`${queued.url}/api/batches/${id}/results`);
    assert.equal(stalled.statusCode, 200);
    stalled.on('error', () => {});
    const e = await expectError(await fetch(`${queued.url}/api/batches/${id}/results`), 429);
    assert.equal(e.limit, 'EXPORTS_PER_CLIENT');
    // The API's own pool is not the exports': everything else answers.
    assert.equal((await fetch(`${queued.url}/api/batches/${id}`)).status, 200);
    // The server cuts the stalled download (its connection idle past the timeout: the paused client
    // does not read far enough to see it) and gives its place back: the client may download again.
    const again = await waitFor('the stalled download\'s place to be freed', async () => {
      const r = await fetch(`${queued.url}/api/batches/${id}/results?format=csv`);
      if (r.status === 429) return void (await r.arrayBuffer());
      return r;
    }, 60_000, 200);
    assert.equal(again.status, 200);
    assert.equal((await again.text()).trim().split('\n').length, 100_001);
    stalled.destroy();
  });

  test('past EXPORT_CONNECTIONS downloads in all, a third client is refused (429, Retry-After) while two stall', { timeout: 120_000 }, async () => {
    const r = await post(`${queued.url}/api/batches`, { scenario: { ...tiny, durationS: 0.01 }, grid: {}, replications: 100_000 });
    assert.equal(r.status, 202, await r.clone().text());
    const { id } = await json(r);
    const results = `${queued.url}/api/batches/${id}/results`;
    // Two clients, one download each (EXPORTS_PER_CLIENT 1): both of the exports' connections.
    const stalled = await Promise.all([stalledDownload(results, '127.0.0.2'), stalledDownload(results, '127.0.0.3')]);
    for (const s of stalled) {
      assert.equal(s.statusCode, 200);
      s.on('error', () => {});
    }
    const e = await expectError(await fetch(results), 429);
    assert.equal(e.limit, 'EXPORT_CONNECTIONS');
    assert.equal(e.value, 2);
    for (const s of stalled) s.destroy();
    const again = await waitFor('a connection to be free', async () => {
      const r = await fetch(`${results}?format=csv`);
      if (r.status === 429) return void (await r.arrayBuffer());
      return r;
    }, 60_000, 200);
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  // main.ts gives the exports' pool EXPORT_STATEMENT_TIMEOUT_S and EXPORT_IDLE_TIMEOUT_S this way.
  test('a pool\'s sessions carry the statement and idle-in-transaction timeouts it is given', async () => {
    const pool = createPool(queuedDb.url, { max: 1, statementTimeoutMs: 1500, idleInTransactionTimeoutMs: 2500 });
    try {
      const r = await pool.query<{ statement: string; idle: string }>(
        `SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`,
      );
      assert.deepEqual(r.rows[0], { statement: '1500ms', idle: '2500ms' });
      await assert.rejects(pool.query('SELECT pg_sleep(3)'), /statement timeout/);
    } finally {
      await pool.end();
    }
  });
});

describe('cancellation', () => {
  // A run of some tens of seconds: still running when it is cancelled.
  const endless = { ...preset('dumbbell-bulk'), durationS: 3000 };

  /** A process's processor time so far, in clock ticks (proc(5) stat fields 14 and 15); 0 once it is gone. */
  function cpuTicks(pid: number): number {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  }

  /**
   * The simulators running `owner`'s runs (in `table`), once both workers run one: a simulator of a
   * worker with a run of `owner` marked running whose processor time goes on growing (a run claimed
   * but not yet written to it leaves it idle).
   */
  async function simulatorsRunning(table: 'runs' | 'reproduction_runs', column: 'batch_id' | 'reproduction_id', owner: string) {
    const firstSeen = new Map<number, number>();
    return waitFor('both workers to run a run', async () => {
      const r = await db.query<{ worker_id: string }>(`SELECT DISTINCT worker_id FROM ${table} WHERE ${column} = $1 AND status = 'running' AND worker_id IS NOT NULL`, [owner]);
      const workers = r.rows.map((w) => Number(w.worker_id.split(':')[1]));
      const busy = workers.map((worker) =>
        simulatorsOf(worker).filter((pid) => {
          if (!firstSeen.has(pid)) firstSeen.set(pid, cpuTicks(pid));
          return cpuTicks(pid) - firstSeen.get(pid)! >= 10;
        }),
      );
      return workers.length === 2 && busy.every((s) => s.length > 0) ? { workers, simulators: busy.flat() } : undefined;
    }, 60_000, 50);
  }

  for (const [what, table, column] of [
    ['batch', 'runs', 'batch_id'],
    ['reproduction', 'reproduction_runs', 'reproduction_id'],
  ] as const) {
    test(`DELETE of a ${what} reaches every simulator running its runs, in every worker; the workers serve on`, async () => {
      const r =
        what === 'batch'
          ? await post(`${working.url}/api/batches`, { scenario: endless, grid: {}, replications: 4 })
          : await post(`${working.url}/api/reproductions`, { experiment: customExperiment(endless, 4) });
      assert.equal(r.status, 202, await r.clone().text());
      const { id } = await json(r);
      const { workers, simulators } = await simulatorsRunning(table, column, id);
      const cancelled = await fetch(`${working.url}/api/${what === 'batch' ? 'batches' : 'reproductions'}/${id}`, { method: 'DELETE' });
      assert.equal(cancelled.status, 200);
      assert.equal((await json(cancelled)).status, 'cancelled');
      // Told through NOTIFY, each worker stops its run: its simulator is ended (and replaced).
      await waitFor('the simulators to end', async () => (simulators.some(running) ? undefined : true), 30_000, 50);
      assert.ok(workers.every(running), 'the workers themselves go on');
      const runs = await db.query<{ status: string }>(`SELECT status FROM ${table} WHERE ${column} = $1`, [id]);
      assert.deepEqual([...new Set(runs.rows.map((run) => run.status))], ['cancelled']);
      // The next work is run.
      const next = await post(`${working.url}/api/batches`, { scenario: tiny, grid: {}, replications: 2 });
      const { id: nextId } = await json(next);
      const done = await waitFor('the next batch', async () => {
        const b = await json(await fetch(`${working.url}/api/batches/${nextId}`));
        return b.counts.pending === 0 ? b : undefined;
      });
      assert.equal(done.status, 'completed');
    });
  }
});

describe('synchronous runs', () => {
  // server/src/sim/gate.ts: as many synchronous runs at once as local workers (at least one, here
  // one), 16 waiting behind them; the next is refused at once, with when to come back.
  test('past the synchronous runs\' places, a 429 with Retry-After; the runs that waited are answered', async () => {
    // A bulk transfer on a dumbbell for 300 s (SYNC_MAX_DURATION_S): seconds of simulation.
    const slow = { ...preset('dumbbell-bulk'), durationS: 300 };
    const first = post(`${queued.url}/api/runs`, { scenario: slow });
    const command = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1];
      } catch {
        return undefined; // Ended meanwhile.
      }
    };
    const runs = () => simulatorsOf(queued.pid).filter((pid) => command(pid) === 'run');
    await waitFor('the first run to be running', async () => (runs().length > 0 ? true : undefined), 30_000, 10);
    const rest = await Promise.all(Array.from({ length: 17 }, () => post(`${queued.url}/api/runs`, { scenario: tiny })));
    const refused = rest.filter((r) => r.status === 429);
    assert.equal(refused.length, 1, `statuses ${rest.map((r) => r.status).join(', ')}`);
    const e = await expectError(refused[0], 429);
    assert.match(e.error, /synchronous runs/);
    // SYNC_TIMEOUT_S (10 s): by then a place has come free.
    assert.equal(refused[0].headers.get('retry-after'), '10');
    assert.equal((await first).status, 200);
    for (const r of rest.filter((r) => r.status !== 429)) assert.equal(r.status, 200, await r.text());
  });
});

describe('bad input', () => {
  test('a body nested deeper than MAX_JSON_DEPTH is a 400 on every route that takes one', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const path of ['/api/runs', '/api/experiments', '/api/batches', '/api/reproductions']) {
      const r = await fetch(`${working.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"scenario": ${deep}}` });
      const e = await expectError(r, 400);
      assert.equal(e.path, '$', path);
      assert.equal(e.limit, 'MAX_JSON_DEPTH', path);
    }
    // Within the server's limit but deeper than a scenario may be: the simulator's 400.
    const nested = { ...tiny, record: JSON.parse('['.repeat(64) + ']'.repeat(64)) };
    const e = await expectError(await post(`${working.url}/api/runs`, { scenario: nested }), 400);
    assert.equal(e.path, '$.scenario');
  });

  test('a NUL character in an id or a name is a 400 naming it, on every route that takes one', async () => {
    const routes: Array<[string, string, RegExp]> = [
      ['GET', '/api/experiments/%00', /^\$params\.id/],
      ['GET', '/api/batches/%00', /^\$params\.id/],
      ['GET', '/api/batches/%00/results', /^\$params\.id/],
      ['DELETE', '/api/batches/%00', /^\$params\.id/],
      ['GET', '/api/reproductions/a%00b', /^\$params\.id/],
      ['GET', '/api/reproductions/%00/report', /^\$params\.id/],
      ['DELETE', '/api/reproductions/%00', /^\$params\.id/],
      ['GET', '/api/presets/%00', /^\$params\.name/],
      ['GET', '/api/presets/%00/experiment', /^\$params\.name/],
    ];
    for (const [method, path, at] of routes) {
      const e = await expectError(await fetch(`${working.url}${path}`, { method }), 400);
      assert.match(e.path, at, `${method} ${path}`);
    }
  });
});
