// Schema-driven fuzzing of the API: Schemathesis (installed by scripts/bootstrap into
// build/schemathesis/) reads the live server's OpenAPI document (/docs/json) and sends every
// operation generated requests, valid and invalid; every answer must be a status the document
// lists for the route (no 5xx), with a body and a content type the document describes.
//
// `npm test` runs it briefly (FUZZ_API_EXAMPLES examples per operation, default 12, with a fixed
// seed, and the coverage phase only where it is quick: see test/fuzz/quick.toml); `npm run fuzz:api`
// runs it at length (FUZZ_API_FULL=1: every phase on every operation, 100 examples, a new seed)
// and prints the same figures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../src/config.js';
import { startTestDatabase } from './helpers/postgres.js';
import { startServer } from './helpers/server.js';

const st = join(repoRoot, 'build/schemathesis/bin/st');
const quickConfig = fileURLToPath(new URL('../../test/fuzz/quick.toml', import.meta.url));
const full = process.env.FUZZ_API_FULL === '1';
const examples = Number(process.env.FUZZ_API_EXAMPLES || (full ? 100 : 12));
const seed = process.env.FUZZ_API_SEED || (full ? String(Math.floor(Math.random() * 2 ** 31)) : '1');

/** The checks: no 5xx; statuses, bodies and content types as the OpenAPI document says. */
const checks = ['not_a_server_error', 'status_code_conformance', 'response_schema_conformance', 'content_type_conformance'];

/** The parts of Schemathesis's JSON run report (--report json) printed and checked here. */
interface RunReport {
  running_time: number;
  exit_code: number;
  operations: { selected: number; tested: number; errored: number };
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: unknown[];
  errors: unknown[];
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

test(`Schemathesis finds no 5xx and no answer the OpenAPI document does not describe (${examples} examples per operation, seed ${seed})`, { timeout: full ? 3 * 3600_000 : 300_000 }, async () => {
  assert.ok(existsSync(st), `${st} is missing: run scripts/bootstrap (it installs Schemathesis from scripts/schemathesis-requirements.txt)`);
  const db = await startTestDatabase();
  // The limits that keep generated requests small, and rate limits out of the way (the rate
  // limiter itself is tested in api.test.ts): a 429 would hide the route's own answer.
  const server = await startServer(db.url, {
    WORKERS: '1',
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_RUNS_MAX: '1000000',
    SYNC_MAX_DURATION_S: '60',
    SYNC_TIMEOUT_S: '2',
    MAX_DURATION_S: '60',
    RUN_TIMEOUT_S: '5',
    MAX_GRID_POINTS: '10',
    MAX_BATCH_RUNS: '40',
    WEB_DIST: join(tmpdir(), 'tcblab-no-web-dist'),
  });
  const reportDir = mkdtempSync(join(tmpdir(), 'tcblab-fuzz-api-'));
  const reportPath = join(reportDir, 'report.json');
  try {
    const args = [
      ...(full ? [] : ['--config-file', quickConfig]),
      'run',
      `${server.url}/docs/json`,
      '--checks', checks.join(','),
      '--max-examples', String(examples),
      '--seed', seed,
      // One at a time: Hypothesis's lambda descriptions are not thread-safe on Python 3.11
      // ("AST constructor recursion depth mismatch" with several workers).
      '--workers', '1',
      '--request-timeout', '30',
      '--report', 'json',
      '--report-json-path', reportPath,
    ];
    // In the report's directory: Schemathesis keeps a cache (.schemathesis/) where it runs.
    const { code, output } = await run(st, args, reportDir);
    // Schemathesis writes its report when it ends; without one, its own output says why.
    assert.ok(existsSync(reportPath) && readFileSync(reportPath, 'utf8').trim() !== '', `schemathesis ended (exit ${code}) without a report:\n${output}`);
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport;
    const { operations: ops, test_cases: cases } = report;
    console.log(
      `# schemathesis: ${ops.tested}/${ops.selected} operations, ${cases.generated} test cases in ${report.running_time.toFixed(1)} s ` +
        `(seed ${seed}), ${cases.unique_failures} unique failures, ${cases.errored} errored`,
    );
    assert.equal(ops.tested, ops.selected, 'every operation was tested');
    assert.ok(ops.selected >= 12, `the document lists the API's operations (${ops.selected})`);
    assert.equal(cases.unique_failures + report.errors.length + ops.errored, 0, output);
    assert.equal(code, 0, output);
  } finally {
    await server.stop();
    await db.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
});
