// The outside probe of the service, replayed: each finding that once took the service (or the host)
// down or made it lie, tried again against a running service over loopback, with a verdict of
// whether the service held. Used by `npm run abuse` (bench/abuse.mjs), which prints them as a table with
// what it measured meanwhile, and by the soak, whose chaos loop replays the quick ones under load.
// Every probe is bounded: small bodies, few runs, cancelled batches, and nothing that waits forever.
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants, running, stat } from '../helpers/processes.js';
import { flood, tiny } from '../helpers/scenarios.js';
import { currentRss } from './monitor.js';

export interface AbuseContext {
  /** The service, on loopback. */
  url: string;
  /** The service's top process (npm start), when started here: its workers and simulators descend from it. */
  servicePid?: number;
  /** Its DATA_DIR, when started here with its embedded PostgreSQL. */
  dataDir?: string;
  /** The service's MAX_RUN_MEMORY_MB and SYNC_MAX_MEMORY_MB. */
  runMemoryMb: number;
  syncMemoryMb: number;
}

export interface Verdict {
  held: boolean;
  detail: string;
  /** A figure the report prints on its own line (e.g. the flood's peak resident memory). */
  figure?: [string, string];
  skipped?: boolean;
}

export interface Probe {
  /** The finding, as the probe of the service reported it. */
  finding: string;
  /** Short enough to replay under load (the soak's chaos loop). */
  quick: boolean;
  run(ctx: AbuseContext): Promise<Verdict>;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
}

async function bodyOf(r: Response): Promise<Record<string, any>> {
  const text = await r.text();
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

/** Polls `fn` until it returns a value (at most `seconds`). */
async function until<T>(seconds: number, fn: () => Promise<T | undefined>, everyMs = 200): Promise<T | undefined> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(everyMs);
  }
  return undefined;
}

/** The simulators (tcpsim) among the service's processes. */
function simulators(ctx: AbuseContext): number[] {
  if (ctx.servicePid === undefined) return [];
  return descendants(ctx.servicePid).filter((pid) => stat(`/proc/${pid}/stat`)?.comm === 'tcpsim');
}

/**
 * The most resident memory any of the service's simulators held while `work` ran (sampled every
 * 50 ms; its own runs' memory, not what a persistent simulator held before).
 */
async function peakSimulatorRss<T>(ctx: AbuseContext, work: Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = 0;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      for (const pid of simulators(ctx)) peak = Math.max(peak, currentRss(pid));
      await sleep(50);
    }
  })();
  try {
    return { value: await work, peak };
  } finally {
    done = true;
    await sampling;
  }
}

/**
 * A batch's results download, as a client should fetch it: refused while this address has its
 * downloads open (429, EXPORTS_PER_CLIENT: the soak's own readers share the address), it comes back
 * after Retry-After, for at most a minute.
 */
async function results(ctx: AbuseContext, id: string, query = ''): Promise<Response> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await fetch(`${ctx.url}/api/batches/${id}/results${query}`);
    if (r.status !== 429 || Date.now() > deadline) return r;
    await r.arrayBuffer();
    await sleep(Number(r.headers.get('retry-after') ?? 1) * 1000);
  }
}

async function batch(ctx: AbuseContext, scenario: unknown, replications: number, grid: Record<string, unknown[]> = {}): Promise<string> {
  const r = await postJson(`${ctx.url}/api/batches`, { scenario, grid, replications });
  const body = await bodyOf(r);
  if (r.status !== 202) throw new Error(`POST /api/batches answered ${r.status}: ${JSON.stringify(body)}`);
  return body.id;
}

async function batchView(ctx: AbuseContext, id: string): Promise<Record<string, any>> {
  return bodyOf(await fetch(`${ctx.url}/api/batches/${id}`));
}

async function finished(ctx: AbuseContext, id: string, seconds: number): Promise<Record<string, any> | undefined> {
  return until(seconds, async () => {
    const b = await batchView(ctx, id);
    return b.counts?.pending === 0 ? b : undefined;
  });
}

/** A bulk transfer on a dumbbell for 3000 s: a run of a minute or so. */
const slow = {
  schemaVersion: 1,
  durationS: 3000,
  topology: { kind: 'dumbbell', pairs: 2, bottleneck: { bandwidthMbps: 10, delayMs: 20, queue: { packets: 50 } }, access: { bandwidthMbps: 100, delayMs: 1 } },
  traffic: [{ type: 'bulk', from: 'left0', to: 'right0' }],
};

/** Whether every simulator of the service is idle (its CPU time does not move for half a second). */
async function simulatorsIdle(ctx: AbuseContext): Promise<boolean> {
  const cpu = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime (proc(5) fields 14, 15).
    } catch {
      return 0;
    }
  };
  const before = new Map(simulators(ctx).map((pid) => [pid, cpu(pid)]));
  await sleep(500);
  return [...before].every(([pid, t]) => !running(pid) || cpu(pid) - t <= 5);
}

export const probes: Probe[] = [
  {
    finding: 'One batch of one onoff-udp run (100 Gb/s into a 1 Mb/s unlimited queue) grew tcpsim serve to 23.6 GB: now its memory account stops it, the run fails once and is not retried',
    quick: false,
    async run(ctx) {
      const { value: b, peak } = await peakSimulatorRss(ctx, (async () => finished(ctx, await batch(ctx, flood(60, 100_000_000), 1), 120))());
      if (!b) return { held: false, detail: 'the batch did not finish within 120 s' };
      const rows = await bodyOf(await results(ctx, b.id));
      const error = String((rows as unknown as Array<{ error: string }>)[0]?.error ?? '');
      const limitBytes = (2 * ctx.runMemoryMb + 256) * 2 ** 20;
      const held = b.status === 'failed' && /MAX_RUN_MEMORY_MB/.test(error) && peak < limitBytes;
      return {
        held,
        detail: `status ${b.status}, peak simulator RSS ${mib(peak)} (MAX_RUN_MEMORY_MB ${ctx.runMemoryMb}); ${error.slice(0, 160)}`,
        figure: ['peak RSS of the former 23.6 GB case (the flood, its queue uncapped)', ctx.servicePid === undefined ? 'not measured (a service not started here)' : mib(peak)],
      };
    },
  },
  {
    finding: 'The same flood into a queue left "unlimited": it holds at most unlimitedQueuePackets, and DELETE reaches its simulator',
    quick: false,
    async run(ctx) {
      const id = await batch(ctx, flood(60), 1);
      const started = await until(60, async () => ((await batchView(ctx, id)).counts?.running > 0 ? true : undefined));
      if (!started) return { held: false, detail: 'the run did not start within 60 s' };
      const { peak } = await peakSimulatorRss(ctx, sleep(3000));
      const cancelled = await fetch(`${ctx.url}/api/batches/${id}`, { method: 'DELETE' });
      const idle = ctx.servicePid === undefined ? true : await until(30, async () => ((await simulatorsIdle(ctx)) ? true : undefined));
      const held = cancelled.status === 200 && idle === true && peak < (2 * ctx.runMemoryMb + 256) * 2 ** 20;
      return { held, detail: `peak simulator RSS ${mib(peak)} over 3 s of flood; DELETE ${cancelled.status}; simulators idle after it: ${idle === true}` };
    },
  },
  {
    finding: 'A synchronous POST /api/runs of the flood peaked at 8.1 GB before its 422: now a 422 naming SYNC_MAX_MEMORY_MB',
    quick: true,
    async run(ctx) {
      const { value: r, peak } = await peakSimulatorRss(ctx, postJson(`${ctx.url}/api/runs`, { scenario: flood(2, 100_000_000) }));
      const body = await bodyOf(r);
      const held = r.status === 422 && body.limit === 'SYNC_MAX_MEMORY_MB' && peak < (2 * ctx.syncMemoryMb + 256) * 2 ** 20;
      return { held, detail: `${r.status} ${body.limit ?? ''}; peak RSS ${mib(peak)}; ${String(body.error).slice(0, 120)}` };
    },
  },
  {
    finding: 'kill -9 of a worker left its tcpsim serve under PID 1, running after the batch was deleted',
    quick: false,
    async run(ctx) {
      if (ctx.servicePid === undefined) return { held: true, skipped: true, detail: 'skipped: needs a service started here (its workers are found among its processes)' };
      const id = await batch(ctx, slow, 4);
      const busy = await until(60, async () => {
        for (const pid of simulators(ctx)) {
          const parent = stat(`/proc/${pid}/stat`)?.ppid;
          if (parent !== undefined && parent !== ctx.servicePid && !(await simulatorsIdle(ctx))) return { simulator: pid, worker: parent };
        }
        return undefined;
      });
      if (!busy) return { held: false, detail: 'no worker ran a simulator within 60 s' };
      process.kill(busy.worker, 'SIGKILL');
      const gone = await until(30, async () => (running(busy.simulator) ? undefined : true));
      await fetch(`${ctx.url}/api/batches/${id}`, { method: 'DELETE' });
      return { held: gone === true, detail: `worker ${busy.worker} killed (SIGKILL); its simulator ${busy.simulator} ${gone ? 'ended with it' : 'is still running'}` };
    },
  },
  {
    finding: 'POST /api/experiments with altered numbers and a copied resultHash returned verified: true',
    quick: true,
    async run(ctx) {
      const r = await postJson(`${ctx.url}/api/runs`, { scenario: tiny });
      const result = await bodyOf(r);
      if (r.status !== 200) return { held: false, detail: `the run of the scenario answered ${r.status}` };
      const forged = structuredClone(result);
      forged.run.meanCompletionTimeS = -1;
      const saved = await postJson(`${ctx.url}/api/experiments`, { scenario: tiny, result: forged });
      const body = await bodyOf(saved);
      return { held: saved.status === 400 && body.path === '$.result.run.meanCompletionTimeS', detail: `${saved.status} at ${body.path}` };
    },
  },
  {
    finding: 'Twenty slow readers of /results (2 kB/s) held the database pool: every database route, health included, answered 503',
    quick: false,
    async run(ctx) {
      const id = await batch(ctx, { ...tiny, durationS: 0.01 }, 100_000);
      // Cancel its runs at once: the rows are what the readers read.
      await fetch(`${ctx.url}/api/batches/${id}`, { method: 'DELETE' });
      const requests: ClientRequest[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < 20; ++i) {
        const req = httpRequest(`${ctx.url}/api/batches/${id}/results?format=csv`, (res) => {
          statuses.push(res.statusCode ?? 0);
          // 2 kB a second: a chunk read, then a pause.
          res.on('data', () => {
            res.pause();
            setTimeout(() => res.resume(), 1000).unref();
          });
          res.on('error', () => {});
        });
        req.on('error', () => {});
        req.end();
        requests.push(req);
      }
      await until(10, async () => (statuses.length === 20 ? true : undefined));
      const answers: number[] = [];
      for (let i = 0; i < 10; ++i) {
        answers.push((await fetch(`${ctx.url}/api/health`)).status, (await fetch(`${ctx.url}/api/batches/${id}`)).status);
        await sleep(300);
      }
      for (const req of requests) req.destroy();
      const open = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      const held = answers.every((s) => s === 200);
      return { held, detail: `${open} downloads open, ${refused} refused (429: EXPORTS_PER_CLIENT / EXPORT_CONNECTIONS); health and GET batch meanwhile: ${[...new Set(answers)].join(', ')}` };
    },
  },
  {
    finding: 'A custom experiment of 100,000 replications of a heavy scenario was accepted (~8,300 CPU-hours); reproductions escaped every budget and health',
    quick: true,
    async run(ctx) {
      const experiment = { schemaVersion: 1, name: 'heavy', scenario: flood(300), variants: [{ name: 'as-is' }], replications: 100_000, metrics: [{ name: 'events', pointer: '/run/events' }] };
      const r = await postJson(`${ctx.url}/api/reproductions`, { experiment });
      const body = await bodyOf(r);
      const health = await bodyOf(await fetch(`${ctx.url}/api/health`));
      const counted = health.queue?.kinds?.reproductions !== undefined;
      return { held: r.status === 413 && body.limit === 'CLIENT_BUDGET' && counted, detail: `${r.status} ${body.limit ?? ''} (cost ${body.size ?? '?'} work units); health counts reproductions: ${counted}` };
    },
  },
  {
    finding: 'The embedded PostgreSQL did not come back after its postmaster was killed (503 for ten minutes); /api/health leaked ECONNREFUSED 127.0.0.1:<port>',
    quick: false,
    async run(ctx) {
      if (!ctx.dataDir || ctx.servicePid === undefined) return { held: true, skipped: true, detail: 'skipped: needs a service started here with its embedded PostgreSQL' };
      const pidFile = join(ctx.dataDir, 'postgres', 'cluster', 'postmaster.pid');
      const postmaster = () => Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      const runs = 40;
      const id = await batch(ctx, { ...tiny, durationS: 30 }, runs);
      await until(60, async () => ((await batchView(ctx, id)).counts?.done > 0 ? true : undefined));
      const killed = postmaster();
      if (!descendants(ctx.servicePid).includes(killed)) return { held: false, detail: `the postmaster ${killed} is not the service's` };
      process.kill(killed, 'SIGKILL');
      let leaked = '';
      const back = await until(120, async () => {
        const r = await fetch(`${ctx.url}/api/health`);
        const text = await r.text();
        if (/127\.0\.0\.1|localhost|:\d{4,5}\b/.test(text)) leaked = text;
        return r.status === 200 && existsSync(pidFile) && postmaster() !== killed ? true : undefined;
      });
      if (!back) return { held: false, detail: 'PostgreSQL was not back within 120 s' };
      const b = await finished(ctx, id, 180);
      const rows = b ? ((await bodyOf(await results(ctx, id))) as unknown as Array<{ replication: number; status: string; error: string | null }>) : [];
      const errors = [...new Set(rows.filter((r) => r.status !== 'done').map((r) => `${r.status}: ${r.error}`))];
      const once = rows.length === runs && rows.every((r, i) => r.replication === i && r.status === 'done');
      return {
        held: once && leaked === '',
        detail: `back by itself; batch ${b?.status ?? 'unfinished'}: ${rows.filter((r) => r.status === 'done').length}/${runs} runs done, each recorded once${errors.length ? `; failed: ${errors.join('; ').slice(0, 300)}` : ''}${leaked ? `; health leaked ${leaked.slice(0, 100)}` : ''}`,
        figure: ['runs lost or recorded twice across the PostgreSQL kill', once ? '0' : `${runs - rows.length} lost, ${rows.length > runs ? rows.length - runs : 0} twice`],
      };
    },
  },
  {
    finding: 'A JSON body nested 5,000+ deep was a 500 on every POST; tcpsim serve crashed on one nested 100,000 deep',
    quick: true,
    async run(ctx) {
      const statuses: number[] = [];
      for (const depth of [5000, 100_000]) {
        for (const path of ['/api/runs', '/api/batches', '/api/experiments', '/api/reproductions']) {
          const r = await fetch(`${ctx.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"scenario": ${'['.repeat(depth)}${']'.repeat(depth)}}` });
          statuses.push(r.status);
          await r.arrayBuffer();
        }
      }
      return { held: statuses.every((s) => s === 400), detail: `statuses ${[...new Set(statuses)].join(', ')}` };
    },
  },
  {
    finding: '%00 in an id was a 500',
    quick: true,
    async run(ctx) {
      const statuses = await Promise.all(['/api/experiments/%00', '/api/batches/%00', '/api/reproductions/%00/report'].map(async (p) => (await fetch(`${ctx.url}${p}`)).status));
      return { held: statuses.every((s) => s === 400), detail: `statuses ${statuses.join(', ')}` };
    },
  },
  {
    finding: "The synchronous runs' queue answered 429 without Retry-After (and so may every other 429)",
    quick: true,
    async run(ctx) {
      // More synchronous runs at once than their gate has places and waiting room (server/src/sim/gate.ts:
      // at most 4 and 16): four runs of seconds (the dumbbell-bulk preset's 20 flows for 300 s, the
      // longest a synchronous run may simulate), then 17 short ones behind them.
      const busy = { ...(await bodyOf(await fetch(`${ctx.url}/api/presets/dumbbell-bulk`))), durationS: 300 };
      const slow = Array.from({ length: 4 }, () => postJson(`${ctx.url}/api/runs`, { scenario: busy }));
      await sleep(300);
      const short = await Promise.all(Array.from({ length: 17 }, () => postJson(`${ctx.url}/api/runs`, { scenario: tiny })));
      // Three results downloads at once from one address: EXPORTS_PER_CLIENT (2) refuses the third.
      const id = await batch(ctx, { ...tiny, durationS: 0.01 }, 50_000);
      await fetch(`${ctx.url}/api/batches/${id}`, { method: 'DELETE' });
      const controllers = [new AbortController(), new AbortController(), new AbortController()];
      const downloads = await Promise.all(controllers.map((c) => fetch(`${ctx.url}/api/batches/${id}/results`, { signal: c.signal }).catch(() => undefined)));
      /** What refused a 429: the limit it names, or the synchronous runs' gate (which names none). */
      const refusal = async (r: Response) => {
        const body = await bodyOf(r);
        return body.limit ? String(body.limit) : /synchronous runs/.test(String(body.error)) ? 'synchronous runs' : 'unnamed';
      };
      // The refusals' bodies are read before the open downloads are cut.
      const early = [...short, ...downloads.filter((r) => r !== undefined)].filter((r) => r.status === 429);
      const kinds = await Promise.all(early.map(refusal));
      for (const c of controllers) c.abort();
      const slowDone = await Promise.all(slow);
      const late = slowDone.filter((r) => r.status === 429);
      kinds.push(...(await Promise.all(late.map(refusal))));
      await Promise.all([...short, ...slowDone].filter((r) => r.status !== 429).map((r) => r.arrayBuffer().catch(() => undefined)));
      const limited = [...early, ...late];
      const withHeader = limited.filter((r) => /^\d+$/.test(r.headers.get('retry-after') ?? ''));
      const gate = kinds.includes('synchronous runs');
      const exports = kinds.includes('EXPORTS_PER_CLIENT');
      return {
        held: gate && exports && withHeader.length === limited.length,
        detail: `${limited.length} refused (${[...new Set(kinds)].join(', ')}), ${withHeader.length} with Retry-After`,
      };
    },
  },
  {
    finding: 'A CSV cell starting with ";=", a space or a newline passed the formula neutralising',
    quick: true,
    async run(ctx) {
      const values = [';=1+1', ' =1+1', '\n=1+1'];
      const id = await batch(ctx, tiny, 1, { '/name': values });
      await fetch(`${ctx.url}/api/batches/${id}`, { method: 'DELETE' });
      const csv = await (await results(ctx, id, '?format=csv')).text();
      const neutralised = values.every((v) => csv.includes(`'${v}`));
      return { held: neutralised, detail: neutralised ? 'each written after an apostrophe' : `CSV: ${JSON.stringify(csv.slice(0, 300))}` };
    },
  },
  {
    finding: "The Content-Security-Policy's style-src kept 'unsafe-inline'",
    quick: true,
    async run(ctx) {
      const csp = (await fetch(`${ctx.url}/api/health`)).headers.get('content-security-policy') ?? '';
      return { held: !csp.includes('unsafe-inline'), detail: csp.match(/style-src [^;]*/)?.[0] ?? 'no style-src' };
    },
  },
];
