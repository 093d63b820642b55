// The service as `npm start` and `npm run worker` run it, as child processes of a test: a server
// on a free loopback port, and stand-alone workers. Each is started in a process group of its own
// so that a test can kill it with everything it started (its workers, their tcpsim children).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/db/embedded.js';
import type { NetnsHost } from './netns.js';

const mainScript = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const workerScript = fileURLToPath(new URL('../../src/worker-main.js', import.meta.url));
const logDir = mkdtempSync(join(tmpdir(), 'tcblab-test-logs-'));

export interface Proc {
  pid: number;
  child: ChildProcess;
  log: string;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group, and wait for the leader's exit. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
}

export interface TestServer extends Proc {
  url: string;
  port: number;
}

let counter = 0;

function start(script: string, env: Record<string, string>, readyPattern: RegExp, name: string, netns?: NetnsHost): Promise<{ proc: Proc; line: string }> {
  const log = join(logDir, `${name}-${++counter}.log`);
  const out = createWriteStream(log);
  const options = { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] as const, detached: true };
  // In a network namespace (another host), the command is `ip netns exec <ns> node <script>`,
  // which execs node: the pid and the process group are node's all the same.
  const child = netns ? netns.spawn(process.execPath, [script], { ...options, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, [script], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Proc = {
    pid: child.pid!,
    child,
    log,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s; see ${log}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out.write(chunk);
      buffer += chunk.toString();
      const match = buffer.match(readyPattern);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, line: match[0] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready; see ${log}`));
    });
  });
}

/** Test defaults: fast heartbeats, small limits (each test may override). */
export const testEnv = {
  WORKER_HEARTBEAT_MS: '300',
  WORKER_DEAD_AFTER_MS: '3000',
};

/** `npm start` against `databaseUrl`; with '' (and DATA_DIR in `env`), with its own embedded PostgreSQL. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  const { proc } = await start(
    mainScript,
    { ...testEnv, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', WORKERS: '1', ...env },
    /listening on http:\/\/[^\s]+/,
    'server',
  );
  const url = `http://127.0.0.1:${port}`;
  // Wait for the local workers to have registered when there are any.
  const workers = Number(env.WORKERS ?? '1');
  for (let i = 0; i < 200; ++i) {
    const health = (await (await fetch(`${url}/api/health`)).json()) as { queue: { workers: number } };
    if (health.queue.workers >= workers) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...proc, url, port };
}

/** A stand-alone worker (npm run worker); with `netns`, on that other host, reaching `databaseUrl` over its link. */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}, netns?: NetnsHost): Promise<Proc> {
  const { proc } = await start(workerScript, { ...testEnv, DATABASE_URL: databaseUrl, ...env }, /worker \S+: \d+ at a time/, 'worker', netns);
  return proc;
}

export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Polls `fn` every `intervalMs` until it returns a value other than undefined (at most `timeoutMs`). */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
