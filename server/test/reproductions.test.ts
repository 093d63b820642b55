// Reproductions end to end over HTTP against a real PostgreSQL: a seed paper's experiment run on
// the queue at full size (and a document at quick size) gives the report `tcpsim reproduce --json`
// prints, to the byte and runsHash included, stored at its link; bad experiments are 400s with the
// document's path and tcpsim's words; cancelling stops the runs; a worker killed mid-run leaves
// every run recorded exactly once; the runs are queued as jobs of consecutive runs, claimed in
// groups.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';
import { json, post, startServer, startWorkerProcess, waitFor, type Proc, type TestServer } from './helpers/server.js';
import { tcpsim } from './helpers/native.js';
import { jobSizes } from '../src/queue/jobs.js';
import { parseReproductionRunPayload, reproductionRunJobSpecs } from '../src/queue/reproduction-jobs.js';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

let db: TestDatabase;
let server: TestServer;
const started: Proc[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'tcblab-reproductions-'));

before(async () => {
  db = await startTestDatabase();
  server = await startServer(db.url, { WORKERS: '2', WEB_DIST: join(tmpdir(), 'tcblab-no-web-dist'), MAX_BATCH_RUNS: '1000' });
  started.push(server);
});

after(async () => {
  for (const p of started) await p.kill();
  await db?.close();
});

/** `tcpsim <args>`'s output; `status` its expected exit code. */
function cli(args: string[], status = 0): { stdout: string; stderr: string } {
  const r = spawnSync(tcpsim, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, status, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr };
}

function experimentDocument(name: string): Record<string, any> {
  return JSON.parse(cli(['experiment', name]).stdout);
}

async function submit(s: TestServer, body: unknown): Promise<{ id: string; url: string; runs: number }> {
  const r = await post(`${s.url}/api/reproductions`, body);
  const text = await r.text();
  assert.equal(r.status, 202, text);
  return JSON.parse(text);
}

async function finished(s: TestServer, id: string, timeoutMs = 120_000): Promise<any> {
  return waitFor(
    `reproduction ${id} to finish`,
    async () => {
      const r = await json(await fetch(`${s.url}/api/reproductions/${id}`));
      return ['completed', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
    },
    timeoutMs,
    200,
  );
}

/** Every run recorded once (attempts as given, default 1 each) and no job left behind. */
async function assertRecordedOnce(id: string, runs: number): Promise<void> {
  const rows = await db.query<{ run_index: number; status: string; attempts: number; result_hash: string }>(
    'SELECT run_index, status, attempts, result_hash FROM reproduction_runs WHERE reproduction_id = $1 ORDER BY run_index',
    [id],
  );
  assert.deepEqual(rows.rows.map((r) => r.run_index), Array.from({ length: runs }, (_, i) => i));
  assert.ok(rows.rows.every((r) => r.status === 'done' && /^[0-9a-f]{64}$/.test(r.result_hash)));
  // The report's job is completed just after it stored the report (which the status shows first).
  const left = () =>
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs
       WHERE id IN (SELECT job_id FROM reproduction_runs WHERE reproduction_id = $1) OR id = (SELECT report_job_id FROM reproductions WHERE id = $1)`,
      [id],
    );
  await waitFor('no job left behind', async () => ((await left()).rows[0].n === 0 ? true : undefined), 30_000, 50);
}

describe('a reproduction gives tcpsim reproduce\'s report', () => {
  test('a built-in experiment at full size: the report at its link is `tcpsim reproduce --json`, to the byte', async () => {
    const created = await submit(server, { experiment: 'etcp-fig6-model' });
    assert.equal(created.url, `/r/${created.id}`);
    const expected = cli(['reproduce', 'etcp-fig6-model', '--json']).stdout;
    const report = JSON.parse(expected);
    assert.equal(created.runs, report.runs);

    const r = await finished(server, created.id);
    assert.equal(r.status, 'completed', JSON.stringify(r));
    assert.equal(r.experiment, 'etcp-fig6-model');
    assert.equal(r.mode, 'full');
    assert.equal(r.error, null);
    assert.deepEqual(r.counts, { total: report.runs, done: report.runs, failed: 0, cancelled: 0, pending: 0, running: 0 });
    assert.deepEqual(r.report, report, 'the report is the CLI\'s');
    assert.equal(r.report.runsHash, report.runsHash);
    assert.ok(r.finishedAt);

    const exact = await fetch(`${server.url}/api/reproductions/${created.id}/report`);
    assert.equal(exact.status, 200);
    assert.match(exact.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(await exact.text(), expected, 'the stored JSON text is the CLI\'s, byte for byte');
    const text = await fetch(`${server.url}/api/reproductions/${created.id}/report?format=text`);
    assert.match(text.headers.get('content-type') ?? '', /text\/plain/);
    assert.equal(await text.text(), cli(['reproduce', 'etcp-fig6-model']).stdout);
    await assertRecordedOnce(created.id, report.runs);
  });

  test('a document at quick size: the report of `tcpsim reproduce <file> --quick --json`', async () => {
    const document = experimentDocument('right-edge-recovery');
    document.quick.replications = 3;
    const file = join(scratch, 'right-edge-recovery.json');
    writeFileSync(file, JSON.stringify(document));
    const expected = cli(['reproduce', file, '--quick', '--json']).stdout;

    const created = await submit(server, { experiment: document, mode: 'quick' });
    assert.equal(created.runs, JSON.parse(expected).runs);
    const r = await finished(server, created.id);
    assert.equal(r.status, 'completed', JSON.stringify(r));
    assert.equal(r.mode, 'quick');
    assert.equal(await (await fetch(`${server.url}/api/reproductions/${created.id}/report`)).text(), expected);
    await assertRecordedOnce(created.id, created.runs);
  });
});

describe('bad input', () => {
  async function expectError(response: Response, status: number) {
    const text = await response.text();
    assert.equal(response.status, status, text);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    return JSON.parse(text) as { error: string; path?: string; problem?: string; limit?: string; value?: number };
  }

  test('a broken document is a 400 with its path in the document and tcpsim reproduce\'s words', async () => {
    const document = experimentDocument('tcpint-fig-sack');
    document.variants[1].set['/tcp/flavor'] = 'vegas';
    const file = join(scratch, 'broken.json');
    writeFileSync(file, JSON.stringify(document));
    const line = cli(['reproduce', file, '--quick'], 2).stderr.trim().replace(/^error: /, '');
    const colon = line.indexOf(': ');
    const [cliPath, problem] = [line.slice(0, colon), line.slice(colon + 2)];
    assert.match(cliPath, /^\$\.variants\[1\]\.set/);

    const body = await expectError(await post(`${server.url}/api/reproductions`, { experiment: document }), 400);
    assert.equal(body.path, `$.experiment${cliPath.slice(1)}`);
    assert.equal(body.problem, problem);
    assert.equal(body.error, `${body.path}: ${problem}`);
  });

  test('an unknown experiment, a bad mode, an unknown field, a run count over MAX_BATCH_RUNS', async () => {
    const unknown = await expectError(await post(`${server.url}/api/reproductions`, { experiment: 'no-such-experiment' }), 400);
    assert.equal(unknown.path, '$.experiment');
    assert.match(unknown.problem!, /unknown experiment "no-such-experiment"/);
    assert.equal((await expectError(await post(`${server.url}/api/reproductions`, { experiment: 'etcp-fig6-model', mode: 'huge' }), 400)).path, '$.mode');
    assert.equal((await expectError(await post(`${server.url}/api/reproductions`, { experiment: 'etcp-fig6-model', seed: 3 }), 400)).path, '$.seed');
    await expectError(await post(`${server.url}/api/reproductions`, { experiment: 5 }), 400);
    // right-edge-recovery at full size: 2 variants x 9 points x 200 replications.
    const big = await expectError(await post(`${server.url}/api/reproductions`, { experiment: 'right-edge-recovery' }), 413);
    assert.equal(big.limit, 'MAX_BATCH_RUNS');
    assert.equal(big.value, 1000);
    assert.match(big.error, /3600 runs is more than MAX_BATCH_RUNS = 1000/);
  });

  test('unknown ids are 404s; a report not yet built is a 409', async () => {
    await expectError(await fetch(`${server.url}/api/reproductions/AAAAAAAAAAAAAAAAAAAAAA`), 404);
    await expectError(await fetch(`${server.url}/api/reproductions/AAAAAAAAAAAAAAAAAAAAAA/report`), 404);
    await expectError(await fetch(`${server.url}/api/reproductions/AAAAAAAAAAAAAAAAAAAAAA`, { method: 'DELETE' }), 404);
    await expectError(await fetch(`${server.url}/api/reproductions/x/report?format=pdf`), 400);
    const { id } = await submit(server, { experiment: 'gurkan-table4.2', mode: 'quick' });
    const early = await fetch(`${server.url}/api/reproductions/${id}/report`);
    if (early.status !== 200) await expectError(early, 409);
    await fetch(`${server.url}/api/reproductions/${id}`, { method: 'DELETE' });
  });
});

test('cancelling stops the runs, removes their jobs, and stays cancelled', async () => {
  const { id, runs } = await submit(server, { experiment: 'tcpint-fig-sack' });
  await waitFor('a recorded run', async () => ((await json(await fetch(`${server.url}/api/reproductions/${id}`))).counts.done > 0 ? true : undefined), 60_000, 50);
  const r = await fetch(`${server.url}/api/reproductions/${id}`, { method: 'DELETE' });
  assert.equal(r.status, 200);
  const cancelled = await json(r);
  assert.equal(cancelled.status, 'cancelled');
  assert.ok(cancelled.counts.cancelled > 0 && cancelled.counts.cancelled < runs);
  assert.equal(cancelled.counts.pending, 0);
  assert.equal(cancelled.report, undefined);
  const jobs = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM graphile_worker.jobs j JOIN reproduction_runs r ON r.job_id = j.id
     WHERE r.reproduction_id = $1 AND j.locked_at IS NULL`,
    [id],
  );
  assert.equal(jobs.rows[0].n, 0, 'the queued jobs are gone');
  // Runs in progress at the cancellation are stopped, and no record arrives after it.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const later = await json(await fetch(`${server.url}/api/reproductions/${id}`));
  assert.equal(later.status, 'cancelled');
  assert.deepEqual(later.counts, cancelled.counts);
  assert.equal((await json(await fetch(`${server.url}/api/reproductions/${id}`, { method: 'DELETE' }))).status, 'cancelled');
});

test('a worker killed by its pid mid-run: the run is retried elsewhere, every run is recorded once, and the report is tcpsim\'s', async () => {
  // Only this test's two workers take the runs.
  await server.stop();
  const own = await startServer(db.url, { WORKERS: '0' });
  started.push(own);
  const a = await startWorkerProcess(db.url);
  const b = await startWorkerProcess(db.url);
  started.push(a, b);
  // Runs of a few tenths of a second each (Gürkan's Table 4.2 at its quick size, one replication):
  // long enough to be caught in the middle.
  const document = experimentDocument('gurkan-table4.2');
  document.quick.replications = 1;
  const file = join(scratch, 'gurkan-table4.2.json');
  writeFileSync(file, JSON.stringify(document));
  const { id, runs } = await submit(own, { experiment: document, mode: 'quick' });
  const victim = await waitFor(
    'a run in progress',
    async () => {
      const r = await db.query<{ run_index: number; worker_id: string }>(
        `SELECT run_index, worker_id FROM reproduction_runs WHERE reproduction_id = $1 AND status = 'running' LIMIT 1`,
        [id],
      );
      return r.rows[0];
    },
    60_000,
    20,
  );
  const pid = Number(victim.worker_id.split(':')[1]);
  assert.ok(pid === a.pid || pid === b.pid, `the run's worker ${victim.worker_id} is one of ours`);
  process.kill(pid, 'SIGKILL');
  await (pid === a.pid ? a : b).exited;

  const r = await finished(own, id, 180_000);
  assert.equal(r.status, 'completed', JSON.stringify(r));
  await assertRecordedOnce(id, runs);
  const retried = await db.query<{ attempts: number }>('SELECT attempts FROM reproduction_runs WHERE reproduction_id = $1 AND run_index = $2', [id, victim.run_index]);
  assert.equal(retried.rows[0].attempts, 2, 'the killed run ran again, once');
  assert.equal(await (await fetch(`${own.url}/api/reproductions/${id}/report`)).text(), cli(['reproduce', file, '--quick', '--json']).stdout);
  await (pid === a.pid ? b : a).stop();
  await own.stop();
});

test('a reproduction\'s jobs name each run\'s point: its variant and point in run order', () => {
  // sim-core's Expand orders runs variant-major, then point, then replication: with 30
  // replications, runs 0-29 are the first point's, 30-59 the second's.
  // 300 runs: jobs of 32 while 256 are left, then smaller (jobSizes).
  const specs = reproductionRunJobSpecs('r1', 300, 30, 32);
  let first = 0;
  assert.deepEqual(
    specs.map((spec) => spec.payload),
    jobSizes(300, 32).map((size) => ({ reproduction: 'r1', runs: range(first, first + size), points: range(first, (first += size)).map((run) => Math.floor(run / 30)) })),
  );
  assert.deepEqual((specs[0].payload as { runs: number[] }).runs, range(0, 32));
  assert.deepEqual((specs[2].payload as { points: number[] }).points, range(64, 94).map((run) => Math.floor(run / 30)));
  // Payloads of earlier servers (one run, no points) still parse.
  assert.deepEqual(parseReproductionRunPayload({ reproduction: 'r1', run: 5 }), { reproduction: 'r1', runs: [5] });
  assert.deepEqual(parseReproductionRunPayload(specs[2].payload), specs[2].payload);
  assert.throws(() => parseReproductionRunPayload({ reproduction: 'r1', runs: [1, 2], points: [0] }), /bad payload/);
});

test('a reproduction\'s runs are queued as jobs of consecutive runs, claimed in groups', async () => {
  // No worker until the queue has been read (the shared server's stopped with the test above).
  const own = await startServer(db.url, { WORKERS: '0' });
  started.push(own);
  const document = experimentDocument('right-edge-recovery');
  const file = join(scratch, 'right-edge-recovery-groups.json');
  writeFileSync(file, JSON.stringify(document));
  const expected = cli(['reproduce', file, '--quick', '--json']).stdout;
  const { replications, runs: total } = JSON.parse(expected) as { replications: number; runs: number };
  assert.ok(total > 64 && replications > 1, `${total} runs, ${replications} replications`);

  const { id, runs } = await submit(own, { experiment: document, mode: 'quick' });
  assert.equal(runs, total);
  // Jobs of consecutive runs, BATCH_JOB_RUNS (32) or fewer towards the end (jobSizes).
  const queued = await db.query<{ run_index: number; job_id: number }>(
    `SELECT r.run_index, r.job_id FROM reproduction_runs r JOIN graphile_worker.jobs j ON j.id = r.job_id
     WHERE r.reproduction_id = $1 AND j.task_identifier = 'tcb_lab_reproduction_run' ORDER BY r.run_index`,
    [id],
  );
  assert.equal(queued.rows.length, total, 'every run is in a queued job');
  const jobOf = queued.rows.map((row) => Number(row.job_id));
  const firstOfJob = jobSizes(total, 32).flatMap((size, j, sizes) => {
    const first = sizes.slice(0, j).reduce((a, b) => a + b, 0);
    return Array.from({ length: size }, () => first);
  });
  assert.equal(new Set(jobOf).size, jobSizes(total, 32).length);
  jobOf.forEach((job, i) => assert.equal(job, jobOf[firstOfJob[i]], `run ${i} is in the job of runs ${firstOfJob[i]}..`));

  const worker = await startWorkerProcess(db.url);
  started.push(worker);
  const r = await finished(own, id);
  assert.equal(r.status, 'completed', JSON.stringify(r));
  await assertRecordedOnce(id, runs);
  assert.equal(await (await fetch(`${own.url}/api/reproductions/${id}/report`)).text(), expected);
  // The first job's first run goes alone (nothing of the reproduction has run on the worker); the
  // others in a few claims, not one each (a claim stamps its runs' started_at with one
  // transaction time).
  const first = await db.query<{ started_at: Date }>(
    'SELECT started_at FROM reproduction_runs WHERE reproduction_id = $1 AND run_index < 32',
    [id],
  );
  const claims = new Set(first.rows.map((row) => row.started_at.getTime())).size;
  assert.ok(claims >= 2 && claims <= 8, `the first job's 32 runs went in ${claims} claims`);
  await worker.stop();
  await own.stop();
});
