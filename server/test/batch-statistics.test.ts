// A batch's per-point statistics (repositories/batches.ts pointStatisticsSql), read by every
// GET /api/batches/:id of a running batch: they must cost one pass over the batch's runs however
// little PostgreSQL's statistics know of the batch, which for a batch just submitted is nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migrate } from '../src/db/migrate.js';
import { pointStatisticsSql } from '../src/repositories/batches.js';
import { metricDefinitions } from '../src/sim/metrics.js';
import { startTestDatabase, type TestDatabase } from './helpers/postgres.js';

let db: TestDatabase;
before(async () => {
  db = await startTestDatabase();
  await migrate(db.url);
});
after(() => db?.close());

/** A batch of `points` points with `runsOf(point)` runs each, all done; jain_index = point + replication / 10. */
async function insertBatch(id: string, points: number, runsOf: (point: number) => number): Promise<number> {
  await db.query(
    `INSERT INTO batches (id, scenario, grid, pointers, replications, trace, total_runs)
     VALUES ($1, '{}', '{}', '{/description}', 1, 'none', 1)`,
    [id],
  );
  await db.query(
    `INSERT INTO batch_points (batch_id, point_index, params, scenario)
     SELECT $1, i, jsonb_build_object('/description', i), '{}' FROM generate_series(0, $2 - 1) AS i`,
    [id, points],
  );
  const pointOf: number[] = [];
  const replicationOf: number[] = [];
  for (let p = 0; p < points; ++p) {
    for (let r = 0; r < runsOf(p); ++r) {
      pointOf.push(p);
      replicationOf.push(r);
    }
  }
  await db.query(
    `INSERT INTO runs (batch_id, point_index, replication, seed, status, jain_index)
     SELECT $1, p, r, 1, 'done', p + r / 10.0 FROM unnest($2::int[], $3::int[]) AS k(p, r)`,
    [id, pointOf, replicationOf],
  );
  return pointOf.length;
}

interface PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows the plan's nodes produced or filtered out, over all their loops. */
function rowsHandled(node: PlanNode): number {
  const own = (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0)) * node['Actual Loops'];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsHandled(child), 0);
}

const jain = metricDefinitions.findIndex((m) => m.column === 'jain_index');
const events = metricDefinitions.findIndex((m) => m.column === 'events');

/** Checks the sweep's statistics: work in proportion to its points and runs, and the values. */
async function checkSweep(sweep: string, points: number, runsOf: (point: number) => number, runs: number, situation: string): Promise<void> {
  const explained = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${pointStatisticsSql}`, [sweep]);
  const handled = rowsHandled(explained.rows[0]['QUERY PLAN'][0].Plan);
  // A point's own runs, its aggregate, the point and its row out: some 4 rows a point and a run.
  // Joined to the whole batch's aggregate, the planner's guess of one point and one run made this
  // points x runs: a nested loop aggregating the batch again for every point, or filtering the
  // whole aggregate for every point.
  assert.ok(handled <= 4 * (points + runs), `${situation}: the statistics handled ${handled} rows for ${points} points and ${runs} runs`);

  const rows = (await db.query(pointStatisticsSql, [sweep])).rows;
  assert.equal(rows.length, points);
  rows.forEach((row, p) => {
    const n = runsOf(p);
    assert.equal(row.point_index, p);
    assert.deepEqual(row.params, { '/description': p });
    assert.equal(Number(row.runs), n);
    assert.equal(Number(row[`n${jain}`]), n);
    assert.ok(Math.abs(row[`mean${jain}`] - (p + (n - 1) / 20)) < 1e-9, `point ${p}: mean ${row[`mean${jain}`]}`);
    if (n === 1) assert.equal(row[`sd${jain}`], null);
    else assert.ok(Math.abs(row[`sd${jain}`] - 0.1) < 1e-9, `point ${p}: sd ${row[`sd${jain}`]}`);
    // A metric no run has: counted as none, with no mean.
    assert.equal(Number(row[`n${events}`]), 0);
    assert.equal(row[`mean${events}`], null);
  });
}

const points = 400;
/** Every fourth point has three replications, the others one. */
const runsOf = (p: number) => (p % 4 === 0 ? 3 : 1);

test("a sweep's statistics take one pass over its runs in tables vacuumed but never analysed", async () => {
  // Earlier batches (replications of one point) in tables that a VACUUM sized but nothing analysed
  // (what bench/server.mjs leaves before each batch), then the sweep.
  for (const c of 'bcde') await insertBatch(c.repeat(22), 1, () => 500);
  await db.query('VACUUM batches, batch_points, runs');
  const sweep = 'aaaaaaaaaaaaaaaaaaaaaa';
  await checkSweep(sweep, points, runsOf, await insertBatch(sweep, points, runsOf), 'vacuumed, never analysed');
});

test("a sweep's statistics take one pass over its runs while PostgreSQL's statistics know nothing of it", async () => {
  // Tables analysed with earlier batches in them (those above, and a sweep); the new sweep comes
  // after, as on a running service (autovacuum analyses a table only once a share of it has
  // changed).
  await insertBatch('f'.repeat(22), 500, () => 1);
  await db.query('ANALYZE batches, batch_points, runs');
  const sweep = 'gggggggggggggggggggggg';
  await checkSweep(sweep, points, runsOf, await insertBatch(sweep, points, runsOf), 'analysed before the sweep');
});

test('a point without done runs has none counted, and no statistics', async () => {
  const id = 'hhhhhhhhhhhhhhhhhhhhhh';
  await insertBatch(id, 3, (p) => (p === 1 ? 0 : 2));
  await db.query("UPDATE runs SET status = 'failed' WHERE batch_id = $1 AND point_index = 2 AND replication = 1", [id]);
  const rows = (await db.query(pointStatisticsSql, [id])).rows;
  assert.deepEqual(rows.map((row) => Number(row.runs)), [2, 0, 1]);
  assert.equal(rows[1][`mean${jain}`], null);
  assert.equal(Number(rows[1][`n${jain}`]), 0);
});
