// `npm run abuse`: replays the outside probe of the service (server/test/abuse/probes.ts) against a service on this
// machine's loopback and prints, for each finding, whether the service held, with what was
// measured meanwhile: the peak resident memory of every simulator, the host's least available
// memory, and how fast /api/health answered throughout. By default it starts the service itself as
// `npm start` would (an embedded PostgreSQL in a temporary DATA_DIR, WORKERS=2, the default
// limits) on a free loopback port, and stops it at the end; ABUSE_URL=http://127.0.0.1:PORT
// replays against a service already running (loopback only; the probes that kill its processes are
// then skipped). If the host's available memory falls below 2 GiB, the service it started is
// killed and the replay fails. Each figure is printed beside its target (met or NOT met): every
// simulator within its address space, never less than 2 GiB available, no health check slower than
// 1 s, no run lost or recorded twice. Exit code 0 when every finding held, 1 otherwise (the timings
// are printed, not part of it: machines are noisy). To keep a failure from taking a shared host,
// run it under a limit of its own (`prlimit --as=$((8<<30)) -- npm run abuse`, or a cgroup).
//
// A recorded run and its figures: docs/PERFORMANCE.md, "The outside probe, replayed".
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The server's compiled modules (npm run abuse builds them first).
const dist = fileURLToPath(new URL('../server/dist/', import.meta.url));
const { percentile } = await import(join(dist, 'test/helpers/latency.js'));
const { startServer } = await import(join(dist, 'test/helpers/server.js'));
const { loadConfig } = await import(join(dist, 'src/config.js'));
const { Monitor } = await import(join(dist, 'test/abuse/monitor.js'));
const { probes } = await import(join(dist, 'test/abuse/probes.js'));

const floorBytes = 2 * 2 ** 30;

function loopback(url) {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

async function main() {
  const config = loadConfig();
  let server;
  let dataDir;
  let url = process.env.ABUSE_URL;
  if (url && !loopback(url)) {
    console.error(`abuse: ${url} is not on loopback; the replay only runs against this machine's own service`);
    return 2;
  }
  if (!url) {
    dataDir = mkdtempSync(join(tmpdir(), 'tcblab-abuse-'));
    chmodSync(dataDir, 0o755); // Reachable for the postgres user when run as root.
    server = await startServer('', { DATA_DIR: dataDir, WORKERS: '2' });
    url = server.url;
    console.log(`# abuse: service started on ${url} (pid ${server.pid}, embedded PostgreSQL in ${dataDir}, log ${server.log})`);
  }
  const ctx = { url, servicePid: server?.pid, dataDir, runMemoryMb: config.limits.runMemoryMb, syncMemoryMb: config.limits.syncMemoryMb };
  let emergency = '';
  const monitor = new Monitor(url, server?.pid, floorBytes, (why) => {
    emergency = why;
    console.error(`abuse: ${why}: stopping the service`);
    void server?.kill();
  });
  monitor.start();
  const rows = [];
  const figures = [];
  try {
    for (const probe of probes) {
      if (emergency) break;
      monitor.phase = probe.finding;
      const started = Date.now();
      try {
        const v = await probe.run(ctx);
        rows.push({ finding: probe.finding, verdict: v.skipped ? 'skipped' : v.held ? 'held' : 'FAILED', detail: `${v.detail} (${((Date.now() - started) / 1000).toFixed(1)} s)` });
        if (v.figure) figures.push(v.figure);
      } catch (error) {
        rows.push({ finding: probe.finding, verdict: 'FAILED', detail: `the probe failed: ${error.message}` });
      }
      monitor.phase = '';
      console.log(`# ${rows[rows.length - 1].verdict}: ${probe.finding}`);
    }
  } finally {
    const watched = await monitor.stop();
    await server?.stop().catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    console.log('\n| finding | verdict | measured | health, slowest |\n|---|---|---|---|');
    const slowest = (phase) => (watched.healthMaxByPhase.has(phase) ? `${watched.healthMaxByPhase.get(phase).toFixed(0)} ms` : '-');
    for (const r of rows) console.log(`| ${r.finding} | ${r.verdict} | ${r.detail.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | ${slowest(r.finding)} |`);
    const ms = watched.healthMs;
    const slowHealth = ms.filter((t) => t > 1000).length;
    console.log('');
    for (const [label, value] of figures) console.log(`# ${label}: ${value}`);
    const met = (ok) => (ok ? 'met' : 'NOT met');
    const addressSpaceMiB = 2 * config.limits.runMemoryMb + 256;
    const simulatorMiB = watched.maxSimulatorRssBytes / 2 ** 20;
    console.log(`# peak RSS of any simulator: ${simulatorMiB.toFixed(0)} MiB (MAX_RUN_MEMORY_MB ${config.limits.runMemoryMb}, address space ${addressSpaceMiB} MiB; target: within its address space: ${met(simulatorMiB < addressSpaceMiB)})`);
    console.log(`# the service's processes (without simulators and PostgreSQL): at most ${(watched.maxServiceRssBytes / 2 ** 20).toFixed(0)} MiB resident`);
    console.log(`# host available memory: at least ${(watched.minAvailableBytes / 2 ** 30).toFixed(2)} GiB (target: never below 2 GiB: ${met(watched.minAvailableBytes >= floorBytes)})`);
    if (ms.length > 0) {
      console.log(`# GET /api/health x ${ms.length}: p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(0)} ms; ${slowHealth} over 1 s (target: none: ${met(slowHealth === 0)}); ${watched.healthFailures.length} failed${watched.healthFailures.length ? ` (${[...new Set(watched.healthFailures)].slice(0, 3).join('; ')})` : ''}`);
    }
    if (emergency) console.log(`# stopped early: ${emergency}`);
    const failed = rows.filter((r) => r.verdict === 'FAILED').length;
    console.log(`# ${rows.length} findings replayed: ${rows.filter((r) => r.verdict === 'held').length} held, ${failed} failed, ${rows.filter((r) => r.verdict === 'skipped').length} skipped`);
    process.exitCode = failed > 0 || emergency ? 1 : 0;
  }
  return Number(process.exitCode ?? 0);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`abuse: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
