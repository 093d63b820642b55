// The REST API end to end over HTTP: a real server process (npm start's code) with local workers
// against a real PostgreSQL. Answers are compared with the native tcpsim run directly.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { migrate } from '../src/db/migrate.js';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, waitFor, type TestServer } from './helpers/server.js';
import { preset, runNative, validateError } from './helpers/native.js';

const limits = {
  MAX_GRID_POINTS: '20',
  MAX_BATCH_RUNS: '200',
  MAX_DURATION_S: '600',
  SYNC_MAX_DURATION_S: '120',
  BODY_LIMIT_BYTES: '200000',
};

let db: TestDatabase;
let server: TestServer;
const errorBodies: Array<{ status: number; text: string }> = [];

/** Requests whose errors are also checked for leaked internals at the end. */
async function expectError(response: Response, status: number): Promise<{ error: string; path?: string; problem?: string; limit?: string }> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  errorBodies.push({ status, text });
  const body = JSON.parse(text);
  assert.equal(typeof body.error, 'string');
  return body;
}

before(async () => {
  db = await startTestDatabase();
  server = await startServer(db.url, { WORKERS: '2', WEB_DIST: join(tmpdir(), 'tcblab-no-web-dist'), ...limits });
});

after(async () => {
  await server?.stop();
  await db?.close();
});

describe('health, headers, presets, schemas', () => {
  test('health reports the database and the two local workers', async () => {
    const r = await fetch(`${server.url}/api/health`);
    assert.equal(r.status, 200);
    const h = await json(r);
    assert.equal(h.status, 'ok');
    assert.equal(h.database.ok, true);
    assert.equal(h.queue.workers, 2);
    assert.equal(h.engine, 'native');
  });

  test('helmet sets security headers, and Fastify reveals nothing about itself', async () => {
    const r = await fetch(`${server.url}/api/presets`);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.match(r.headers.get('strict-transport-security') ?? '', /max-age=/);
    assert.equal(r.headers.get('x-powered-by'), null);
    assert.ok(r.headers.get('x-ratelimit-limit'), 'rate limit headers');
  });

  test('presets list every tcpsim preset with its metadata, and serve the documents', async () => {
    const list = await json<any[]>(await fetch(`${server.url}/api/presets`));
    const names = list.map((p) => p.name);
    assert.ok(names.includes('scheme-etcp') && names.includes('tcpint-fig-sack'));
    const sack = list.find((p) => p.name === 'tcpint-fig-sack');
    assert.equal(sack.experiment, true);
    assert.equal(sack.paper.id, 'tcpint', 'the paper comes from the catalogue, by the preset\'s paper.id');
    assert.match(sack.paper.authors, /Balakrishnan/);
    assert.ok(list.every((p) => p.paper !== null), 'every preset names its paper');
    assert.equal(list.find((p) => p.name === 'scheme-etcp').experiment, false);
    const doc = await json(await fetch(`${server.url}/api/presets/scheme-etcp`));
    assert.deepEqual(doc, preset('scheme-etcp'));
    const experiment = await json(await fetch(`${server.url}/api/presets/tcpint-fig-sack/experiment`));
    assert.equal(experiment.name, 'tcpint-fig-sack');
    await expectError(await fetch(`${server.url}/api/presets/no-such-preset`), 404);
    await expectError(await fetch(`${server.url}/api/presets/scheme-etcp/experiment`), 404);
  });

  test('the OpenAPI document is generated from the routes and embeds the scenario schema', async () => {
    const doc = await json(await fetch(`${server.url}/docs/json`));
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/api/experiments', '/api/experiments/{id}', '/api/batches', '/api/batches/{id}', '/api/batches/{id}/results', '/api/runs', '/api/presets', '/api/health']) {
      assert.ok(doc.paths[path], `OpenAPI has ${path}`);
    }
    const scenarioSchema = await json(await fetch(`${server.url}/api/schemas/scenario`));
    assert.deepEqual(Object.keys(doc.components.schemas.Scenario.properties), Object.keys(scenarioSchema.properties));
    const body = doc.paths['/api/batches'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(body.properties.scenario, { $ref: '#/components/schemas/Scenario' });
    assert.equal((await fetch(`${server.url}/api/presets/`)).status, 200, 'a trailing slash is the same route');
    const ui = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    assert.equal(ui.status, 200);
    assert.match(await ui.text(), /swagger/i);
  });

  // Found by Schemathesis (status_code_conformance): statuses every route can answer were missing
  // from the document, and TypeBox's tuples are draft-07 schemas OpenAPI 3.1 does not accept.
  test('the OpenAPI document lists every status a route can answer, in OpenAPI 3.1 schemas', async () => {
    const doc = await json(await fetch(`${server.url}/docs/json`));
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        const expected = ['400', '500', '503'];
        if (path !== '/api/health') expected.push('429');
        if (path.includes('{')) expected.push('414');
        if (method === 'post' || method === 'delete') expected.push('413', '415');
        for (const status of expected) assert.ok(statuses.includes(status), `${method.toUpperCase()} ${path} documents ${status} (it has ${statuses.join(', ')})`);
      }
    }
    const arrayItems: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'items' && Array.isArray(v)) arrayItems.push(at);
          walk(v, `${at}/${k}`);
        }
      }
    };
    walk(doc.paths, '#/paths');
    assert.deepEqual(arrayItems, [], 'tuples are prefixItems in JSON Schema 2020-12');
    const results = doc.paths['/api/batches/{id}/results'].get.responses['200'].content;
    assert.deepEqual(Object.keys(results).sort(), ['application/json', 'text/csv']);
    const created = doc.paths['/api/batches'].post.responses['202'];
    assert.equal(created.links.GetBatch.parameters.id, '$response.body#/id');
    assert.deepEqual(Object.keys(doc.paths['/api/runs'].post.requestBody.content['application/json'].example), ['scenario', 'trace']);
  });
});

describe('experiments', () => {
  const scenario = preset('scheme-etcp');

  test('save without a result: the server runs it; load gives the same scenario and tcpsim\'s result', async () => {
    const r = await post(`${server.url}/api/experiments`, { scenario, title: 'E-TCP, html-pre' });
    assert.equal(r.status, 201);
    const created = await json(r);
    assert.match(created.id, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(created.url, `/e/${created.id}`);
    assert.equal(created.verified, true);
    const expected = runNative(scenario);
    assert.equal(created.resultHash, expected.resultHash);
    const loaded = await json(await fetch(`${server.url}/api/experiments/${created.id}`));
    assert.deepEqual(loaded.scenario, scenario);
    assert.equal(loaded.title, 'E-TCP, html-pre');
    assert.equal(loaded.resultHash, expected.resultHash);
    assert.deepEqual(loaded.result, expected);
    assert.ok(!Number.isNaN(Date.parse(loaded.createdAt)));
  });

  test('save with the browser\'s result: stored when its hash matches, 400 with both hashes when not', async () => {
    const result = runNative(scenario, ['--trace', 'series']);
    const ok = await json(await post(`${server.url}/api/experiments`, { scenario, result }));
    assert.equal(ok.verified, true);
    assert.deepEqual((await json(await fetch(`${server.url}/api/experiments/${ok.id}`))).result, result);

    const forged = { ...result, resultHash: 'f'.repeat(64) };
    const e = await expectError(await post(`${server.url}/api/experiments`, { scenario, result: forged }), 400);
    assert.equal(e.path, '$.result.resultHash');
    assert.ok(e.error.includes('f'.repeat(64)) && e.error.includes(result.resultHash));

    // Altered numbers under the right hash (copied from a real run) are refused too, at the first
    // number the server computed otherwise.
    const altered = structuredClone(result);
    altered.run.meanCompletionTimeS = -1;
    const a = await expectError(await post(`${server.url}/api/experiments`, { scenario, result: altered }), 400);
    assert.equal(a.path, '$.result.run.meanCompletionTimeS');
    // A result at trace level none (without the per-flow arrays) is the same result.
    const none = runNative(scenario, ['--trace', 'none']);
    const saved = await json(await post(`${server.url}/api/experiments`, { scenario, result: none }));
    assert.equal(saved.verified, true);
    assert.equal(saved.verification, 'verified');
  });

  test('ids are random, and unknown or malformed ids are 404', async () => {
    const a = await json(await post(`${server.url}/api/experiments`, { scenario }));
    const b = await json(await post(`${server.url}/api/experiments`, { scenario }));
    assert.notEqual(a.id, b.id);
    await expectError(await fetch(`${server.url}/api/experiments/AAAAAAAAAAAAAAAAAAAAAA`), 404);
    await expectError(await fetch(`${server.url}/api/experiments/not-an-id`), 404);
  });

  test('an invalid scenario is a 400 with tcpsim\'s path and words', async () => {
    const bad = structuredClone(scenario);
    bad.traffic[0].to = 'right7';
    const cli = validateError(bad); // $.traffic[0].to: unknown node "right7"
    const e = await expectError(await post(`${server.url}/api/experiments`, { scenario: bad }), 400);
    assert.equal(e.path, '$.scenario' + cli.slice(1, cli.indexOf(': ')));
    assert.equal(e.problem, cli.slice(cli.indexOf(': ') + 2));
    assert.equal(e.error, '$.scenario' + cli.slice(1));
  });
});

describe('synchronous runs', () => {
  test('POST /api/runs gives tcpsim\'s summary', async () => {
    const scenario = preset('spand-single-30k');
    const r = await post(`${server.url}/api/runs`, { scenario });
    assert.equal(r.status, 200);
    assert.deepEqual(await json(r), runNative(scenario));
  });

  // Found by Schemathesis (response schema conformance): six equal goodputs gave a Jain index of
  // 1.0000000000000002, above result.schema.json's maximum of 1 (sim-core/metrics/summary.cc).
  test('a summary stays within result.schema.json: Jain\'s index of equal goodputs is 1', async () => {
    const scenario = {
      schemaVersion: 1,
      durationS: 60,
      topology: { kind: 'dumbbell', pairs: 6, bottleneck: { bandwidthMbps: 1.6, delayMs: 1, queue: 'unlimited' }, access: { bandwidthMbps: 10, delayMs: 1, queue: { packets: 100 } } },
      traffic: [{ type: 'transfers', name: 'web', count: 6, from: 'left{i}', to: 'right{i}', bytes: 30720, atS: [0], startJitterS: 10 }],
    };
    const summary = await json(await post(`${server.url}/api/runs`, { scenario, trace: 'none' }));
    assert.equal(summary.run.fairness.flows, 6);
    assert.equal(summary.run.fairness.jainIndex, 1);
  });

  test('a run longer than SYNC_MAX_DURATION_S is a 413 naming the limit', async () => {
    const scenario = { ...preset('spand-single-30k'), durationS: 121 };
    const e = await expectError(await post(`${server.url}/api/runs`, { scenario }), 413);
    assert.equal(e.limit, 'SYNC_MAX_DURATION_S');
    assert.match(e.error, /SYNC_MAX_DURATION_S = 120/);
  });

  test('bad scenarios are 400s with the path, whatever their duration', async () => {
    const e = await expectError(await post(`${server.url}/api/runs`, { scenario: { schemaVersion: 1, durationS: 1000 } }), 400);
    assert.equal(e.path, '$.scenario');
    assert.equal(e.problem, 'missing required field "topology"');
  });
});

interface Batch {
  id: string;
  status: string;
  counts: { total: number; done: number; failed: number; cancelled: number; pending: number; running: number };
  points: Array<{ params: Record<string, unknown>; runs: number; identicalReplications: boolean; stats: Record<string, { n: number; mean: number | null; sd: number | null; ci95: [number, number] | null }> }>;
  metrics: Array<{ name: string; label: string; unit: string | null }>;
  finishedAt: string | null;
}

async function waitForStatus(id: string, statuses: string[]): Promise<Batch> {
  return waitFor(`batch ${id} ${statuses.join('|')}`, async () => {
    const b = await json<Batch>(await fetch(`${server.url}/api/batches/${id}`));
    return statuses.includes(b.status) ? b : undefined;
  });
}

describe('batches', () => {
  const scenario = preset('scheme-etcp');
  const grid = { '/tcp/flavor': ['reno', 'sack'], '/topology/bottleneck/queue/packets': [10, 20, 40] };

  test('submit, watch it complete, read the aggregates, the results and the CSV', async () => {
    const r = await post(`${server.url}/api/batches`, { scenario, grid, replications: 3, title: 'flavor x queue' });
    assert.equal(r.status, 202);
    const created = await json(r);
    assert.equal(created.runs, 18);
    assert.equal(created.url, `/b/${created.id}`);

    const batch = await waitForStatus(created.id, ['completed', 'failed']);
    assert.equal(batch.status, 'completed');
    assert.deepEqual(batch.counts, { total: 18, done: 18, failed: 0, cancelled: 0, pending: 0, running: 0 });
    assert.ok(batch.finishedAt);
    assert.deepEqual(batch.metrics.map((m) => m.name).slice(0, 2), ['meanCompletionTimeS', 'jainIndex']);
    assert.equal(batch.metrics[0].unit, 's');
    // Points in grid order, the first pointer varying slowest.
    assert.deepEqual(batch.points.map((p) => p.params), [
      { '/tcp/flavor': 'reno', '/topology/bottleneck/queue/packets': 10 },
      { '/tcp/flavor': 'reno', '/topology/bottleneck/queue/packets': 20 },
      { '/tcp/flavor': 'reno', '/topology/bottleneck/queue/packets': 40 },
      { '/tcp/flavor': 'sack', '/topology/bottleneck/queue/packets': 10 },
      { '/tcp/flavor': 'sack', '/topology/bottleneck/queue/packets': 20 },
      { '/tcp/flavor': 'sack', '/topology/bottleneck/queue/packets': 40 },
    ]);

    const results = await json<any[]>(await fetch(`${server.url}/api/batches/${created.id}/results`));
    assert.equal(results.length, 18);
    // Every run is tcpsim's run of the point's scenario with seed + replication.
    const last = results[17];
    const pointScenario = structuredClone(scenario);
    pointScenario.tcp.flavor = 'sack';
    pointScenario.topology.bottleneck.queue.packets = 40;
    const native = runNative(pointScenario, ['--seed', String(scenario.seed + 2), '--trace', 'none']);
    assert.equal(last.replication, 2);
    assert.equal(last.seed, scenario.seed + 2);
    assert.equal(last.resultHash, native.resultHash);
    assert.equal(last.metrics.retransmissions, native.run.retransmissions);
    assert.equal(last.metrics.meanCompletionTimeS, native.run.meanCompletionTimeS);

    // The statistics of a point are those of its runs.
    const values = results.filter((x) => x.point === 0).map((x) => x.metrics.meanCompletionTimeS as number);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
    const stats = batch.points[0].stats.meanCompletionTimeS;
    assert.equal(stats.n, 3);
    assert.ok(Math.abs(stats.mean! - mean) < 1e-12 * Math.abs(mean));
    assert.ok(Math.abs(stats.sd! - sd) < 1e-9 * sd);
    const half = 4.302652729749464 * (sd / Math.sqrt(3)); // t(0.975, 2)
    assert.ok(Math.abs(stats.ci95![1] - stats.ci95![0] - 2 * half) < 1e-9 * half);
    // No page workload here: page metrics have no values, and say so.
    assert.deepEqual(batch.points[0].stats.meanHtmlTimeS, { n: 0, mean: null, sd: null, ci95: null });
    // Replications are identical exactly when every metric of their runs is.
    for (const [i, point] of batch.points.entries()) {
      const runs = results.filter((x) => x.point === i).map((x) => JSON.stringify(x.metrics));
      assert.equal(point.identicalReplications, new Set(runs).size === 1, `point ${i}`);
    }

    const csv = await fetch(`${server.url}/api/batches/${created.id}/results?format=csv`);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    assert.equal(lines.length, 19);
    assert.equal(
      lines[0],
      'point,/tcp/flavor,/topology/bottleneck/queue/packets,replication,seed,status,meanCompletionTimeS,jainIndex,retransmissions,timeouts,meanHtmlTimeS,meanTotalTimeS,retrievalRateBytesPerS,events,resultHash,error',
    );
    assert.ok(lines[18].startsWith(`5,sack,40,2,${scenario.seed + 2},done,${native.run.meanCompletionTimeS},`));

    const withSummary = await json<any[]>(await fetch(`${server.url}/api/batches/${created.id}/results?summary=true`));
    assert.deepEqual(withSummary[17].summary, native);

    // A finished batch's view is computed once (routes/api/batches/batch-views.ts): its runs are
    // final. Changed behind the service's back (here only), a run's row no longer moves the answer.
    await db.query('UPDATE runs SET mean_completion_time_s = mean_completion_time_s + 1 WHERE batch_id = $1', [created.id]);
    assert.deepEqual(await json<Batch>(await fetch(`${server.url}/api/batches/${created.id}`)), batch);
  });

  test('a scheme axis sweeps schemes each with its own options; replications without randomness say they are identical', async () => {
    // scheme-etcp's host sets E-TCP's tickets: each point keeps only what its scheme has
    // (sim-core/experiment/grid.h, SetGridValue).
    const scenario: Record<string, any> = { ...preset('scheme-etcp'), durationS: 5 };
    const created = await json(
      await post(`${server.url}/api/batches`, { scenario, grid: { '/hosts/left0/sharing/scheme': ['independent', 'etcp', 'careful-resume'] }, replications: 1 }),
    );
    const sweep = await waitForStatus(created.id, ['completed']);
    assert.deepEqual(sweep.points.map((p) => p.params['/hosts/left0/sharing/scheme']), ['independent', 'etcp', 'careful-resume']);
    const runs = await json<any[]>(await fetch(`${server.url}/api/batches/${created.id}/results?summary=true`));
    const independent = structuredClone(scenario);
    independent.hosts.left0.sharing = { scheme: 'independent' };
    assert.equal(runs[0].resultHash, runNative(independent, ['--trace', 'none']).resultHash);
    // One replication: nothing to call identical.
    assert.ok(sweep.points.every((p) => p.identicalReplications === false));

    // single-reno-trace draws no random number: its replications are the same run.
    const fixed = await json(await post(`${server.url}/api/batches`, { scenario: preset('single-reno-trace'), grid: { '/tcp/flavor': ['reno', 'sack'] }, replications: 3 }));
    const same = await waitForStatus(fixed.id, ['completed']);
    assert.deepEqual(same.points.map((p) => p.identicalReplications), [true, true]);
  });

  test('resubmitting with the same Idempotency-Key gives the same batch; a different body is a 409', async () => {
    const body = { scenario: preset('spand-single-30k'), grid: { '/tcp/flavor': ['reno', 'newreno'] }, replications: 2 };
    const key = { 'idempotency-key': `key-${Date.now()}` };
    const first = await json(await post(`${server.url}/api/batches`, body, key));
    const again = await post(`${server.url}/api/batches`, body, key);
    assert.equal(again.status, 202);
    assert.equal((await json(again)).id, first.id);
    const other = await post(`${server.url}/api/batches`, body);
    assert.notEqual((await json(other)).id, first.id);
    await expectError(await post(`${server.url}/api/batches`, { ...body, replications: 3 }, key), 409);
    const rows = await db.query('SELECT count(*)::int AS n FROM runs WHERE batch_id = $1', [first.id]);
    assert.equal(rows.rows[0].n, 4);
  });

  test('cancel: unfinished runs are cancelled, their jobs removed, and nothing runs afterwards', async () => {
    const slow = { ...preset('dumbbell-bulk'), durationS: 20 };
    const created = await json(await post(`${server.url}/api/batches`, { scenario: slow, grid: {}, replications: 40 }));
    await waitFor('a finished run', async () => {
      const b = await json<Batch>(await fetch(`${server.url}/api/batches/${created.id}`));
      return b.counts.done > 0 ? b : undefined;
    });
    // Read just before it is cancelled, the running batch's view is kept (batch-views.ts) a few
    // times as long as computing it took; the cancellation's answer and the reads after it are not it.
    assert.equal((await json<Batch>(await fetch(`${server.url}/api/batches/${created.id}`))).status, 'running');
    const r = await fetch(`${server.url}/api/batches/${created.id}`, { method: 'DELETE' });
    assert.equal(r.status, 200);
    const cancelled = await json<Batch>(r);
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.counts.cancelled > 0);
    assert.equal(cancelled.counts.pending, 0);
    assert.equal(cancelled.counts.done + cancelled.counts.cancelled, 40);
    const jobs = await db.query(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id IN (SELECT job_id FROM runs WHERE batch_id = $1 AND status = 'cancelled')`,
      [created.id],
    );
    // Jobs of runs in progress are finished by their workers, at once (they were told to stop).
    await waitFor('the cancelled jobs to be gone', async () => {
      const j = await db.query(
        `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id IN (SELECT job_id FROM runs WHERE batch_id = $1)`,
        [created.id],
      );
      return j.rows[0].n === 0 ? true : undefined;
    });
    assert.ok(jobs.rows[0].n <= 2, 'only the runs in progress still had jobs');
    const later = await json<Batch>(await fetch(`${server.url}/api/batches/${created.id}`));
    assert.deepEqual(later.counts, cancelled.counts);
    // Cancelling again returns the batch; a finished batch cannot be cancelled.
    assert.equal((await fetch(`${server.url}/api/batches/${created.id}`, { method: 'DELETE' })).status, 200);
    const done = await json(await post(`${server.url}/api/batches`, { scenario: preset('spand-single-30k'), grid: {}, replications: 1 }));
    await waitForStatus(done.id, ['completed']);
    await expectError(await fetch(`${server.url}/api/batches/${done.id}`, { method: 'DELETE' }), 409);
    await expectError(await fetch(`${server.url}/api/batches/AAAAAAAAAAAAAAAAAAAAAA`, { method: 'DELETE' }), 404);
  });

  test('CSV cells a spreadsheet would run as formulas are written as text (OWASP, "CSV Injection")', async () => {
    const formulas = ['=HYPERLINK("http://example.org")', '@SUM(A1)', '+1+1', '-2+3'];
    const created = await json(await post(`${server.url}/api/batches`, { scenario: preset('spand-single-30k'), grid: { '/description': formulas }, replications: 1 }));
    const text = await (await fetch(`${server.url}/api/batches/${created.id}/results?format=csv`)).text();
    const cells = text.trim().split('\n').slice(1).map((line) => line.split(',')[1]);
    assert.deepEqual(cells, [`"'=HYPERLINK(""http://example.org"")"`, "'@SUM(A1)", "'+1+1", "'-2+3"]);
    await fetch(`${server.url}/api/batches/${created.id}`, { method: 'DELETE' });
  });

  test('student_t_975, the quantile of the confidence intervals, is Student\'s t for every df', async () => {
    // migrations/0003_run-summaries-and-student-t.sql: @stdlib's values for df 1 to 300,
    // Abramowitz and Stegun 26.7.5 (Cornish-Fisher) beyond, within 2e-13.
    const dfs = [...Array.from({ length: 2000 }, (_, i) => i + 1), 5000, 10_000, 99_999, 1_000_000];
    const r = await db.query<{ df: number; q: number }>('SELECT df, student_t_975(df) AS q FROM unnest($1::bigint[]) AS df', [dfs]);
    assert.equal(r.rows.length, dfs.length);
    for (const { df, q } of r.rows) {
      const expected = tQuantile(0.975, Number(df));
      if (df <= 300) assert.equal(q, expected, `df ${df}: the table's value`);
      else assert.ok(Math.abs(q - expected) <= 2e-13 * expected, `df ${df}: ${q} against ${expected}`);
    }
    const none = await db.query<{ q: number | null }>('SELECT student_t_975(0) AS q');
    assert.equal(none.rows[0].q, null, 'no interval from a single value');
  });

  test('results downloads cut short by the client give their database connection back', async () => {
    const created = await json(await post(`${server.url}/api/batches`, { scenario: preset('spand-single-30k'), grid: {}, replications: 150 }));
    await waitForStatus(created.id, ['completed']);
    // More downloads abandoned after their first chunk than the server's pool has connections.
    for (let i = 0; i < 25; ++i) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/batches/${created.id}/results?summary=true`, { signal: controller.signal });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => {});
    }
    const whole = await json<any[]>(await fetch(`${server.url}/api/batches/${created.id}/results`));
    assert.equal(whole.length, 150);
    assert.deepEqual(whole.map((r) => r.replication), Array.from({ length: 150 }, (_, i) => i));
  });

  test('unknown batches are 404 for every route', async () => {
    for (const path of ['', '/results', '/results?format=csv']) {
      await expectError(await fetch(`${server.url}/api/batches/AAAAAAAAAAAAAAAAAAAAAA${path}`), 404);
    }
  });
});

describe('migrations', () => {
  test('a process whose checkout lacks migrations the database has refuses to start', async () => {
    await db.query(`INSERT INTO pgmigrations (name, run_on) VALUES ('9999_from-a-newer-commit', now())`);
    try {
      await assert.rejects(migrate(db.url), /the database has migrations this checkout does not \(9999_from-a-newer-commit\)/);
    } finally {
      await db.query(`DELETE FROM pgmigrations WHERE name = '9999_from-a-newer-commit'`);
    }
    await migrate(db.url);
  });
});

describe('bad input', () => {
  const scenario = preset('scheme-etcp');
  const batch = (extra: Record<string, unknown>) => ({ scenario, grid: { '/tcp/flavor': ['reno'] }, replications: 1, ...extra });

  const cases: Array<[string, () => Promise<Response>, number, Partial<{ path: string; problem: string; limit: string; size: number }>]> = [
    ['invalid JSON', () => fetch(`${server.url}/api/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scenario": ' }), 400, { path: '$' }],
    ['an unknown field', () => post(`${server.url}/api/batches`, batch({ colour: 'red' })), 400, { path: '$.colour', problem: 'unknown field "colour"' }],
    ['a missing field', () => post(`${server.url}/api/batches`, { scenario, grid: {} }), 400, { path: '$', problem: 'missing required field "replications"' }],
    ['replications 0', () => post(`${server.url}/api/batches`, batch({ replications: 0 })), 400, { path: '$.replications', problem: 'must be >= 1' }],
    ['replications as a string', () => post(`${server.url}/api/batches`, batch({ replications: '2' })), 400, { path: '$.replications' }],
    ['replications over MAX_BATCH_RUNS', () => post(`${server.url}/api/batches`, batch({ replications: 201 })), 400, { path: '$.replications', problem: 'must be <= 200' }],
    ['a grid without values', () => post(`${server.url}/api/batches`, batch({ grid: { '/tcp/flavor': [] } })), 400, { path: "$.grid['/tcp/flavor']" }],
    ['a grid key that is not a pointer', () => post(`${server.url}/api/batches`, batch({ grid: { 'tcp.flavor': ['reno'] } })), 400, { path: "$.grid['tcp.flavor']" }],
    // Found by Schemathesis: a key outside the pointer pattern was let through unchecked, and its
    // value, not a list, failed the planning with a 500.
    ['a grid key that is not a pointer, with a value that is not a list', () => post(`${server.url}/api/batches`, batch({ grid: { x: null } })), 400, { path: '$.grid.x', problem: 'unknown field "x"' }],
    // Found by Schemathesis: refused by Fastify's router, in Fastify's own body, with statuses the
    // OpenAPI document did not list.
    ['an id longer than the router takes', () => fetch(`${server.url}/api/batches/${'A'.repeat(101)}`), 414, {}],
    ['a malformed percent-encoding in the path', () => fetch(`${server.url}/api/experiments/%E0%A4%A`), 400, {}],
    ['a body that is not JSON', () => fetch(`${server.url}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<scenario/>' }), 415, {}],
    ['a pointer whose parent is missing', () => post(`${server.url}/api/batches`, batch({ grid: { '/tcp/x/y': [1] } })), 400, { path: "$.grid['/tcp/x/y']", problem: '/tcp has no "x"' }],
    ['a grid value the scenario rejects', () => post(`${server.url}/api/batches`, batch({ grid: { '/tcp/flavor': ['reno', 'vegas'] } })), 400, { path: "$.grid['/tcp/flavor'][1]" }],
    ['an invalid base scenario', () => post(`${server.url}/api/batches`, batch({ scenario: { ...scenario, durationS: -1 } })), 400, { path: '$.scenario.durationS', problem: 'must be > 0 (got -1)' }],
    ['a scenario that is not an object', () => post(`${server.url}/api/batches`, batch({ scenario: 'dumbbell' })), 400, { path: '$.scenario', problem: 'must be object' }],
    ['too many grid points', () => post(`${server.url}/api/batches`, batch({ grid: { '/seed': Array.from({ length: 21 }, (_, i) => i + 1) } })), 413, { limit: 'MAX_GRID_POINTS', size: 21 }],
    ['too many runs', () => post(`${server.url}/api/batches`, batch({ grid: { '/seed': [1, 2, 3, 4, 5] }, replications: 41 })), 413, { limit: 'MAX_BATCH_RUNS', size: 205 }],
    ['too long a simulated duration', () => post(`${server.url}/api/batches`, batch({ scenario: { ...scenario, durationS: 601 } })), 413, { limit: 'MAX_DURATION_S', path: '$.scenario.durationS' }],
    ['a grid value over the duration limit', () => post(`${server.url}/api/batches`, batch({ grid: { '/durationS': [10, 601] } })), 413, { limit: 'MAX_DURATION_S', path: "$.grid['/durationS'][1]" }],
    ['too large a body', () => post(`${server.url}/api/experiments`, { scenario: { ...scenario, description: 'x'.repeat(250_000) } }), 413, { limit: 'BODY_LIMIT_BYTES' }],
    ['an unknown API route', () => fetch(`${server.url}/api/nothing-here`), 404, {}],
    ['a NUL character in a batch title', () => post(`${server.url}/api/batches`, batch({ title: 'a\u0000b' })), 400, { path: '$.title' }],
    ['a NUL character in a grid value', () => post(`${server.url}/api/batches`, batch({ grid: { '/description': ['x', 'y\u0000'] } })), 400, { path: "$.grid['/description'][1]" }],
    ['a NUL character in a scenario name', () => post(`${server.url}/api/experiments`, { scenario: { ...scenario, hosts: { 'a\u0000': {} } } }), 400, { path: "$.scenario.hosts['a\\u0000']" }],
    ['a title that is too long', () => post(`${server.url}/api/experiments`, { scenario, title: 'x'.repeat(201) }), 400, { path: '$.title' }],
  ];

  for (const [name, request, status, expected] of cases) {
    test(`${name}: ${status}${expected.path ? ` at ${expected.path}` : ''}`, async () => {
      const body = await expectError(await request(), status);
      for (const [key, value] of Object.entries(expected)) assert.equal((body as Record<string, unknown>)[key], value, JSON.stringify(body));
      if (body.path) assert.ok(body.error.startsWith(body.path), body.error);
    });
  }

  test('a grid value the scenario rejects is explained in tcpsim\'s words', async () => {
    const bad = structuredClone(scenario);
    bad.tcp.flavor = 'vegas';
    const cli = validateError(bad);
    const e = await expectError(await post(`${server.url}/api/batches`, batch({ grid: { '/tcp/flavor': ['reno', 'vegas'] } })), 400);
    assert.equal(e.error, `$.grid['/tcp/flavor'][1]: makes $.scenario${cli.slice(1, cli.indexOf(': '))} invalid: ${cli.slice(cli.indexOf(': ') + 2)}`);
  });

  test('a bad batch leaves nothing behind', async () => {
    const r = await db.query(`SELECT count(*)::int AS n FROM batches WHERE grid ? '/tcp/x/y' OR grid ? 'tcp.flavor'`);
    assert.equal(r.rows[0].n, 0);
  });

  test('no error body carries a stack trace or internal detail', () => {
    assert.ok(errorBodies.length > 20);
    for (const { text } of errorBodies) {
      assert.doesNotMatch(text, /\n\s+at |node_modules|\.js:\d+|\/work\/|FST_ERR|stack/i, text);
    }
  });
});

describe('rate limiting', () => {
  test('429 with the limit named, once an address has used its requests', async () => {
    const limited = await startServer(db.url, { WORKERS: '0', RATE_LIMIT_MAX: '5', RATE_LIMIT_RUNS_MAX: '2' });
    try {
      const scenario = preset('spand-single-30k');
      assert.equal((await post(`${limited.url}/api/runs`, { scenario })).status, 200);
      assert.equal((await post(`${limited.url}/api/runs`, { scenario })).status, 200);
      const refused = await post(`${limited.url}/api/runs`, { scenario });
      // Every 429 says when to come back.
      assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
      const e = await expectError(refused, 429);
      assert.equal(e.limit, 'RATE_LIMIT_RUNS_MAX');
      const statuses: number[] = [];
      for (let i = 0; i < 6; ++i) statuses.push((await fetch(`${limited.url}/api/presets`)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      const lastResponse = await fetch(`${limited.url}/api/presets`);
      assert.match(lastResponse.headers.get('retry-after') ?? '', /^\d+$/);
      const last = await expectError(lastResponse, 429);
      assert.equal(last.limit, 'RATE_LIMIT_MAX');
      // Health stays reachable for monitors.
      assert.equal((await fetch(`${limited.url}/api/health`)).status, 200);
    } finally {
      await limited.stop();
    }
  });
});

describe('the web app', () => {
  test('web/dist is served, and client-side routes get index.html; /api and /docs keep their 404s', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'tcblab-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>tcb-lab app</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(dist, 'assets/app.js'), 'console.log("app");');
    const web = await startServer(db.url, { WORKERS: '0', WEB_DIST: dist });
    try {
      for (const path of ['/', '/e/AAAAAAAAAAAAAAAAAAAAAA', '/b/AAAAAAAAAAAAAAAAAAAAAA', '/presets']) {
        const r = await fetch(`${web.url}${path}`);
        assert.equal(r.status, 200, path);
        assert.match(await r.text(), /tcb-lab app/, path);
        const csp = r.headers.get('content-security-policy') ?? '';
        assert.match(csp, /'wasm-unsafe-eval'/);
        // No inline styles or scripts: React sets styles through the CSSOM (docs/SECURITY.md).
        assert.match(csp, /style-src 'self'(;|$)/);
        assert.doesNotMatch(csp, /unsafe-inline/);
      }
      const asset = await fetch(`${web.url}/assets/app.js`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('content-type') ?? '', /javascript/);
      await expectError(await fetch(`${web.url}/api/nope`), 404);
      await expectError(await fetch(`${web.url}/e/x`, { method: 'POST' }), 404);
    } finally {
      await web.stop();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  test('without web/dist, pages say how to build it', async () => {
    const r = await fetch(`${server.url}/e/AAAAAAAAAAAAAAAAAAAAAA`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /npm run build --workspace web/);
  });
});
