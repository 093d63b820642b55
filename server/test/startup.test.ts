// Start-up problems a user can fix are one line naming the fix, and exit status 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const mainScript = fileURLToPath(new URL('../src/main.js', import.meta.url));

test('as root, a DATA_DIR the postgres user cannot reach is refused with the chmod that fixes it', { skip: userInfo().uid !== 0 && 'runs as root only (PostgreSQL then runs as the user postgres)' }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tcblab-private-')); // mode 0700, like mktemp -d
  try {
    const r = spawnSync(process.execPath, [mainScript], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', WORKERS: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`chmod o\\+x ${dataDir}`));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
