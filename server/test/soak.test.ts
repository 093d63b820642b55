// The soak: the service as `npm start` runs it (embedded PostgreSQL under DATA_DIR) with
// stand-alone worker processes, for SOAK_MINUTES (default 0.3: the short version in `npm test`;
// `npm run soak` runs 10), under a mix of 200 concurrent readers, experiment saves, small
// synchronous runs and batches of mixed sizes, while a chaos loop kills a worker by pid, restarts
// one, pauses PostgreSQL's postmaster for a few seconds, cuts a remote worker's link for a few
// seconds and replays a quick finding of the outside probe (npm run abuse, abuse/probes.ts). It drives the service only through its HTTP API, process signals and the link, so it
// keeps working whatever runs the runs underneath.
//
// The remote worker runs on another host (a network namespace, helpers/netns.ts, as root with `ip
// netns`; without them the soak says why and goes on without it). It reaches PostgreSQL over its
// own link, through a TCP relay on this host's end of the link, since the embedded PostgreSQL of
// `npm start` listens on loopback only; the cut is of the link itself (`ip link set ... down`).
//
// At the end: every batch has recorded each of its grid points x replications exactly once (and
// the same seed gave the same result everywhere), no run is left running, no request got a 5xx
// other than 503 or lost its connection; the server's RSS over time and each endpoint's latency
// percentiles are printed (figures, not assertions: machines are noisy).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createNetnsHost, netnsUnavailable, type NetnsHost } from './helpers/netns.js';
import { json, post, startServer, startWorkerProcess, waitFor, type Proc, type TestServer } from './helpers/server.js';
import { preset } from './helpers/native.js';
import { percentile } from './helpers/latency.js';
import { probes, type AbuseContext } from './abuse/probes.js';
import { loadConfig } from '../src/config.js';

const minutes = Number(process.env.SOAK_MINUTES || 0.3);
const readers = Number(process.env.SOAK_READERS || 200);
const workerCount = 2;
const pauseSeconds = 3;
// Longer than WORKER_DEAD_AFTER_MS in the tests (3 s, helpers/server.ts): the cut-off worker is taken
// for dead, its runs go to the others, and what it sends when the link is back is fenced out.
const cutSeconds = 4;
// Why there is no remote worker here, if there is none.
const noRemote = netnsUnavailable();

/** A chaos action: something that goes wrong in production, done to the running service. */
interface ChaosAction {
  name: string;
  run(): Promise<void>;
}

interface Submitted {
  id: string;
  runs: number;
  points: number;
  replications: number;
}

/** Per endpoint (method and route): latencies in ms and answers by status. */
class Meter {
  readonly latencies = new Map<string, number[]>();
  readonly statuses = new Map<string, Map<number | string, number>>();

  async request(label: string, url: string, init?: RequestInit): Promise<Response | undefined> {
    const started = performance.now();
    let status: number | string;
    let response: Response | undefined;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
      await response.clone().arrayBuffer();
      status = response.status;
    } catch (error) {
      status = (error as Error).name === 'TimeoutError' ? 'timeout' : `error: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`;
    }
    const list = this.latencies.get(label) ?? [];
    list.push(performance.now() - started);
    this.latencies.set(label, list);
    const counts = this.statuses.get(label) ?? new Map();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(label, counts);
    return response;
  }
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/**
 * Relays TCP connections made to `address` (on a free port) to 127.0.0.1:`port`: how another host
 * reaches the embedded PostgreSQL, which listens on loopback only.
 */
async function startRelay(address: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {}); // A reset while the link is down; the other side is closed with it.
  };
  const server = createServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    track(inbound);
    track(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test(`soak: ${minutes} min, ${readers} readers, saves, synchronous runs and batches under chaos (kill and restart workers, pause PostgreSQL, cut a remote worker's link)`, { timeout: (minutes * 60 + 600) * 1000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tcblab-soak-'));
  chmodSync(dataDir, 0o755); // Reachable for the postgres user when the tests run as root.
  const small = preset('spand-single-30k');
  const medium = preset('scheme-etcp');
  let server: TestServer | undefined;
  const workers = new Set<Proc>();
  let remoteHost: NetnsHost | undefined;
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
  let remoteWorker: Proc | undefined;
  try {
    server = await startServer('', { DATA_DIR: dataDir, WORKERS: '0', RATE_LIMIT_MAX: '100000000', RATE_LIMIT_RUNS_MAX: '100000000' });
    const url = server.url;
    // The embedded PostgreSQL's port (from the server's log) and password (beside its cluster).
    const pgPort = await waitFor('the database port', async () => readFileSync(server!.log, 'utf8').match(/embedded PostgreSQL on 127\.0\.0\.1:(\d+)/)?.[1]);
    const { password } = JSON.parse(readFileSync(join(dataDir, 'postgres/credentials.json'), 'utf8')) as { password: string };
    const databaseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/tcblab`;
    const startWorker = async () => workers.add(await startWorkerProcess(databaseUrl));
    for (let i = 0; i < workerCount; ++i) await startWorker();
    if (noRemote) {
      console.log(`# soak: no remote worker, so no link is cut: ${noRemote}`);
    } else {
      remoteHost = createNetnsHost();
      relay = await startRelay(remoteHost.hostAddress, Number(pgPort));
      const remoteUrl = `postgres://postgres:${encodeURIComponent(password)}@${remoteHost.hostAddress}:${relay.port}/tcblab`;
      remoteWorker = await startWorkerProcess(remoteUrl, {}, remoteHost);
    }
    const postmasterPid = Number(readFileSync(join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n')[0]);

    const meter = new Meter();
    const seed = await json(await post(`${url}/api/experiments`, { scenario: small, title: 'soak' }));
    const deadline = Date.now() + minutes * 60_000;
    // The load goes on until the deadline and until every chaos action has happened at least once.
    let chaosRounds = 0;
    const running = () => Date.now() < deadline || chaosRounds < actions.length;
    const submitted: Submitted[] = [];
    const batchIds: string[] = [];

    // 200 readers, each a loop with a think time of 0.25 to 0.75 s.
    const reader = async () => {
      while (running()) {
        const batch = batchIds.length > 0 ? pick(batchIds) : undefined;
        const choice = pick(['experiment', 'batch', 'results', 'presets', 'health'] as const);
        if (choice === 'experiment') await meter.request('GET /api/experiments/:id', `${url}/api/experiments/${seed.id}`);
        else if (choice === 'batch' && batch) await meter.request('GET /api/batches/:id', `${url}/api/batches/${batch}`);
        else if (choice === 'results' && batch) await meter.request('GET /api/batches/:id/results', `${url}/api/batches/${batch}/results`);
        else if (choice === 'presets') await meter.request('GET /api/presets', `${url}/api/presets`);
        else await meter.request('GET /api/health', `${url}/api/health`);
        await sleep(250 + Math.random() * 500);
      }
    };
    const saver = async () => {
      for (let i = 0; running(); ++i) {
        await meter.request('POST /api/experiments', `${url}/api/experiments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scenario: { ...small, seed: 1 + (i % 50) }, title: `soak save ${i}` }),
        });
        await sleep(1000);
      }
    };
    const syncRunner = async () => {
      for (let i = 0; running(); ++i) {
        await meter.request('POST /api/runs', `${url}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scenario: { ...small, seed: 1 + (i % 50) }, trace: 'none' }),
        });
        await sleep(1000);
      }
    };
    // Batches of 1 to 24 runs; a submission that fails (PostgreSQL paused) is retried with the same
    // Idempotency-Key until it is answered, as a client should.
    const submitter = async () => {
      for (let i = 0; running(); ++i) {
        const points = pick([1, 2, 3, 4, 8]);
        const replications = pick([1, 2, 3]);
        const scenario = i % 3 === 2 ? medium : small;
        const body = JSON.stringify({ scenario, grid: { '/seed': Array.from({ length: points }, (_, k) => 1 + k) }, replications, title: `soak ${i}` });
        const key = `soak-${process.pid}-${i}`;
        for (;;) {
          const r = await meter.request('POST /api/batches', `${url}/api/batches`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
            body,
          });
          if (r?.status === 202) {
            const created = (await r.json()) as { id: string; runs: number };
            if (!batchIds.includes(created.id)) {
              batchIds.push(created.id);
              submitted.push({ id: created.id, runs: created.runs, points, replications });
            }
            break;
          }
          assert.ok(!r || r.status === 503, `POST /api/batches answered ${r?.status}: ${await r?.text()}`);
          await sleep(500);
        }
        await sleep(1500);
      }
    };

    // The chaos loop: one action every few seconds, in turn.
    const chaosLog: string[] = [];
    const liveWorker = () => [...workers].find((w) => w.child.exitCode === null && w.child.signalCode === null);
    const actions: ChaosAction[] = [
      {
        name: 'kill a worker (SIGKILL by pid) and start a replacement',
        async run() {
          const victim = liveWorker();
          if (!victim) return;
          process.kill(victim.pid, 'SIGKILL');
          await victim.exited;
          workers.delete(victim);
          await startWorker();
        },
      },
      {
        name: 'restart a worker (SIGTERM by pid, then a new one)',
        async run() {
          const victim = liveWorker();
          if (!victim) return;
          await victim.stop();
          workers.delete(victim);
          await startWorker();
        },
      },
      {
        name: `pause PostgreSQL for ${pauseSeconds} s (SIGSTOP, SIGCONT of its postmaster by pid)`,
        async run() {
          process.kill(postmasterPid, 'SIGSTOP');
          try {
            await sleep(pauseSeconds * 1000);
          } finally {
            process.kill(postmasterPid, 'SIGCONT');
          }
        },
      },
    ];
    // The quick findings of the outside probe (npm run abuse), one per round, under the load.
    const abuse: AbuseContext = { url, servicePid: server.pid, dataDir, runMemoryMb: loadConfig().limits.runMemoryMb, syncMemoryMb: loadConfig().limits.syncMemoryMb };
    const quickProbes = probes.filter((p) => p.quick);
    const abuseFailures: string[] = [];
    let abuseRound = 0;
    actions.push({
      name: 'replay a finding of the outside probe (server/test/abuse/probes.ts)',
      async run() {
        const probe = quickProbes[abuseRound++ % quickProbes.length];
        const verdict = await probe.run(abuse).catch((error: Error) => ({ held: false, detail: error.message }));
        if (!verdict.held) abuseFailures.push(`${probe.finding}: ${verdict.detail}`);
      },
    });
    if (remoteHost) {
      const host = remoteHost;
      actions.push({
        name: `cut the remote worker's link for ${cutSeconds} s (ip link set ${host.hostLink} down, then up)`,
        async run() {
          host.cut();
          try {
            await sleep(cutSeconds * 1000);
          } finally {
            host.restore();
          }
        },
      });
    }
    const chaos = async () => {
      while (running()) {
        await sleep(3000);
        if (!running()) break;
        const action = actions[chaosRounds % actions.length];
        const started = Date.now();
        await action.run();
        chaosLog.push(`${action.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        chaosRounds += 1;
      }
    };

    const rss: Array<[number, number]> = [];
    const started = Date.now();
    const sampler = async () => {
      while (running()) {
        rss.push([(Date.now() - started) / 1000, rssMb(server!.pid)]);
        await sleep(Math.max(1000, (minutes * 60_000) / 30));
      }
      rss.push([(Date.now() - started) / 1000, rssMb(server!.pid)]);
    };

    await Promise.all([...Array.from({ length: readers }, reader), saver(), syncRunner(), submitter(), chaos(), sampler()]);
    const loadSeconds = (Date.now() - started) / 1000;

    // Every batch finishes: each run recorded once, none left running.
    const expectedRuns = submitted.reduce((n, b) => n + b.points * b.replications, 0);
    await waitFor(
      'every batch to finish',
      async () => {
        for (const b of submitted) {
          const batch = await json(await fetch(`${url}/api/batches/${b.id}`));
          if (batch.counts.pending > 0) return undefined;
        }
        return true;
      },
      300_000,
      500,
    );
    let recorded = 0;
    let duplicates = 0;
    let lost = 0;
    let failed = 0;
    const hashBySeed = new Map<string, Set<string>>();
    for (const b of submitted) {
      assert.equal(b.runs, b.points * b.replications);
      const batch = await json(await fetch(`${url}/api/batches/${b.id}`));
      assert.equal(batch.counts.running, 0, `batch ${b.id} has runs left running`);
      const runs = await json<Array<{ point: number; replication: number; seed: number; status: string; resultHash: string | null }>>(await fetch(`${url}/api/batches/${b.id}/results`));
      const seen = new Map<string, number>();
      for (const r of runs) {
        const key = `${r.point}/${r.replication}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (r.status === 'done' || r.status === 'failed') recorded += 1;
        if (r.status === 'failed') failed += 1;
        if (r.status === 'done') {
          const scenarioKey = `${batch.scenario.name}/${r.seed}`;
          const hashes = hashBySeed.get(scenarioKey) ?? new Set();
          hashes.add(r.resultHash!);
          hashBySeed.set(scenarioKey, hashes);
        }
      }
      for (let point = 0; point < b.points; ++point) {
        for (let replication = 0; replication < b.replications; ++replication) {
          const n = seen.get(`${point}/${replication}`) ?? 0;
          if (n === 0) lost += 1;
          if (n > 1) duplicates += n - 1;
        }
      }
      assert.equal(runs.length, b.runs, `batch ${b.id}: ${runs.length} runs recorded for ${b.runs}`);
    }
    const health = await json(await fetch(`${url}/api/health`));
    // What the remote worker recorded (its worker id holds its pid, queue/liveness.ts).
    let remoteRuns = 0;
    if (remoteWorker) {
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE status = 'done' AND position($1 in worker_id) > 0`, [`:${remoteWorker.pid}:`]);
        remoteRuns = r.rows[0].n;
      } finally {
        await db.end();
      }
    }

    console.log(`# soak: ${loadSeconds.toFixed(0)} s of load, ${readers} readers, ${workers.size} local workers at the end${remoteWorker ? ' and one remote' : ` (no remote worker: ${noRemote})`}`);
    console.log(`# chaos: ${chaosLog.length} actions: ${chaosLog.join('; ')}`);
    if (remoteWorker) console.log(`# the remote worker recorded ${remoteRuns} runs`);
    console.log(`# runs: ${submitted.length} batches, ${expectedRuns} runs submitted, ${recorded} recorded (${failed} failed), ${duplicates} duplicates, ${lost} lost; queue at the end: ${health.queue.pending} pending, ${health.queue.running} running`);
    console.log(`# server RSS (MB) over time (s): ${rss.map(([t, mb]) => `${t.toFixed(0)}:${mb.toFixed(0)}`).join(' ')}`);
    console.log(`# server RSS: start ${rss[0][1].toFixed(0)} MB, end ${rss[rss.length - 1][1].toFixed(0)} MB, peak ${Math.max(...rss.map(([, mb]) => mb)).toFixed(0)} MB`);
    for (const [label, list] of [...meter.latencies].sort()) {
      const statuses = [...meter.statuses.get(label)!].map(([s, n]) => `${s}: ${n}`).join(', ');
      console.log(`# ${label.padEnd(28)} n ${String(list.length).padStart(6)}  p50 ${percentile(list, 0.5).toFixed(1).padStart(7)} ms  p99 ${percentile(list, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(...list).toFixed(0).padStart(6)} ms  (${statuses})`);
    }

    assert.ok(chaosLog.length >= actions.length, `every chaos action ran (${chaosLog.length})`);
    assert.deepEqual(abuseFailures, [], 'every finding of the outside probe replayed under load held');
    assert.equal(duplicates, 0);
    assert.equal(lost, 0);
    assert.equal(recorded, expectedRuns);
    assert.equal(health.queue.running, 0, 'no run left running');
    for (const [key, hashes] of hashBySeed) assert.equal(hashes.size, 1, `${key}: one result for one scenario and seed`);
    for (const [label, counts] of meter.statuses) {
      for (const [status, n] of counts) {
        assert.ok(typeof status === 'number' && (status < 500 || status === 503), `${label}: ${n} answers ${status}`);
      }
    }
  } finally {
    for (const w of workers) await w.stop().catch(() => {});
    remoteHost?.restore();
    await remoteWorker?.stop().catch(() => {});
    await relay?.close();
    remoteHost?.remove();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
