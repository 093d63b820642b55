// What no single request may do to the service (docs/SECURITY.md): every run bounded in memory by
// the simulator's own account and by an address-space limit, and a run that died of its limit
// failed, not retried; results that the service computed, or marked as not; budgets in work units
// for every request that queues work, reproductions and custom experiments included; results
// downloads from a small pool of their own, a few per client, cut when they stall; health that
// counts every kind of queued work; and the small ones: deep JSON, NUL in an id, Retry-After on
// every 429. Two servers: one with workers and small memory limits, one without workers (its work
// stays queued) and small budgets. Every simulator these tests start runs under RLIMIT_AS (the
// service's own limits, server/src/sim/spawn.ts).
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, waitFor, type TestServer } from './helpers/server.js';
import { preset, runNative } from './helpers/native.js';
import { runCost } from '../src/sim/cost.js';

let db: TestDatabase;
/** The queue of the server without workers: a database of its own, so that no worker takes its work. */
let queuedDb: TestDatabase;
let working: TestServer;
let queued: TestServer;

/** A UDP source at 100 Gb/s into a 1 Mb/s link whose queue is not limited (the cap raised to its maximum). */
const flood = {
  schemaVersion: 1,
  durationS: 2,
  unlimitedQueuePackets: 100_000_000,
  topology: { kind: 'single-link', link: { bandwidthMbps: 1, delayMs: 10 } },
  traffic: [{ type: 'onoff-udp', from: 'server', to: 'client', rateKbps: 100_000_000, meanOnS: 1000, meanOffS: 0.001 }],
};

/** A small scenario: one transfer of 30 kB over 1 Mb/s for 1 s, 1 work unit per run. */
const tiny = {
  schemaVersion: 1,
  durationS: 1,
  topology: { kind: 'single-link', link: { bandwidthMbps: 1, delayMs: 10 } },
  traffic: [{ type: 'transfers', from: 'server', to: 'client', bytes: 30_000, atS: [0] }],
};

before(async () => {
  [db, queuedDb] = await Promise.all([startTestDatabase(), startTestDatabase()]);
  [working, queued] = await Promise.all([
    startServer(db.url, { WORKERS: '1', MAX_RUN_MEMORY_MB: '64', SYNC_MAX_MEMORY_MB: '32', SYNC_MAX_DURATION_S: '5' }),
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
    const result = runNative(long);
    const created = await json(await post(`${working.url}/api/experiments`, { scenario: long, result }));
    assert.deepEqual([created.verified, created.verification, created.resultHash], [false, 'pending', null]);
    const pending = await json(await fetch(`${working.url}/api/experiments/${created.id}`));
    assert.deepEqual(pending.claimedResult, result);
    assert.equal(pending.result, null);
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

  test('health counts the runs of reproductions waiting with no worker', async () => {
    const r = await post(`${queued.url}/api/reproductions`, { experiment: customExperiment(tiny, 3) });
    assert.equal(r.status, 202, await r.clone().text());
    const health = await fetch(`${queued.url}/api/health`);
    assert.equal(health.status, 503, 'work waits and no worker is alive');
    const body = await json(health);
    assert.ok(body.queue.kinds.reproductions.pending > 0);
    assert.equal(body.queue.pending, body.queue.kinds.batches.pending + body.queue.kinds.reproductions.pending + body.queue.kinds.experiments.pending);
  });
});

describe('results downloads', () => {
  /** Opens a results download and reads nothing: the server's writes stall once the socket is full. */
  function stalledDownload(url: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, (res) => {
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

  test('a NUL character in an id is a 400 naming it', async () => {
    for (const path of ['/api/experiments/%00', '/api/batches/%00/results', '/api/reproductions/a%00b']) {
      const e = await expectError(await fetch(`${working.url}${path}`), 400);
      assert.match(e.path, /^\$params\.id/, path);
    }
  });
});
