// `npm start` stopped with SIGTERM while a batch runs: the server stops accepting requests, its
// workers stop and hand their runs back to the queue, and only then does the embedded PostgreSQL
// stop; nothing complains about a database that went away, and the process exits 0 in bounded time.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { json, post, startServer, waitFor } from './helpers/server.js';
import { preset } from './helpers/native.js';

test('SIGTERM stops the server in order and quietly: requests, workers, then PostgreSQL', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tcblab-shutdown-'));
  chmodSync(dataDir, 0o755); // Reachable for the postgres user when the tests run as root.
  const server = await startServer('', { DATA_DIR: dataDir, WORKERS: '2' });
  try {
    const created = await json(await post(`${server.url}/api/batches`, { scenario: preset('dumbbell-bulk'), grid: { '/seed': [1, 2, 3, 4] }, replications: 1 }));
    await waitFor('runs in progress', async () => {
      const b = await json(await fetch(`${server.url}/api/batches/${created.id}`));
      return b.counts.running > 0 ? b : undefined;
    });
    const started = Date.now();
    process.kill(server.pid, 'SIGTERM');
    const code = await server.exited;
    assert.equal(code, 0);
    assert.ok(Date.now() - started < 30_000, 'stopped within the bounded time');
    const log = readFileSync(server.log, 'utf8');
    const tail = log.slice(log.indexOf('SIGTERM: stopping'));
    assert.doesNotMatch(tail, /connection lost|heartbeat failed|ECONNREFUSED|terminating connection|database system is shutting down|Error/i, tail);
    assert.match(tail, /\[server\] stopped\s*$/, tail);
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
