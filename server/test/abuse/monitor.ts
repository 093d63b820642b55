// What the abuse replay watches while it runs (Linux, /proc): the host's available memory, the
// resident memory of every simulator the service runs (its peak, per process), and how fast
// /api/health answers; and a guard that stops everything if the host runs short of memory.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants, stat } from '../helpers/processes.js';

/** MemAvailable of /proc/meminfo, in bytes. */
export function availableMemory(): number {
  const line = readFileSync('/proc/meminfo', 'utf8').split('\n').find((l) => l.startsWith('MemAvailable:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}

/** A process's peak resident memory so far (VmHWM of /proc/<pid>/status), in bytes; 0 once it is gone. */
export function peakRss(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export interface Watched {
  /** The least available memory seen on the host. */
  minAvailableBytes: number;
  /** The largest peak RSS of any simulator seen. */
  maxSimulatorRssBytes: number;
  /** The service's own process tree (not its simulators) at its largest. */
  maxServiceRssBytes: number;
  healthMs: number[];
  /** The slowest health check while each phase (`Monitor.phase`) went on, ms. */
  healthMaxByPhase: Map<string, number>;
  /** Health checks that failed to answer (a connection error) or answered 5xx other than 503. */
  healthFailures: string[];
}

export class Monitor {
  readonly watched: Watched = { minAvailableBytes: Infinity, maxSimulatorRssBytes: 0, maxServiceRssBytes: 0, healthMs: [], healthMaxByPhase: new Map(), healthFailures: [] };
  /** What goes on now (the probe being replayed): a health check is counted to the phase it began in. */
  phase = '';
  #stopped = false;
  #loops: Promise<void>[] = [];

  /**
   * Watches the service whose top process is `servicePid` (its simulators are among its
   * descendants) and `url`'s health; calls `emergency` once if the host's available memory falls
   * below `floorBytes`.
   */
  constructor(
    private readonly url: string,
    private readonly servicePid: number | undefined,
    private readonly floorBytes: number,
    private readonly emergency: (why: string) => void,
  ) {}

  start(): void {
    this.#loops = [this.#watchMemory(), this.#watchHealth()];
  }

  async stop(): Promise<Watched> {
    this.#stopped = true;
    await Promise.all(this.#loops);
    return this.watched;
  }

  async #watchMemory(): Promise<void> {
    let warned = false;
    while (!this.#stopped) {
      const available = availableMemory();
      this.watched.minAvailableBytes = Math.min(this.watched.minAvailableBytes, available);
      if (available < this.floorBytes && !warned) {
        warned = true;
        this.emergency(`the host has ${(available / 2 ** 30).toFixed(2)} GiB available, below ${(this.floorBytes / 2 ** 30).toFixed(1)} GiB`);
      }
      if (this.servicePid !== undefined) {
        let service = 0;
        for (const pid of descendants(this.servicePid).concat(this.servicePid)) {
          const s = stat(`/proc/${pid}/stat`);
          if (!s) continue;
          if (s.comm === 'tcpsim') this.watched.maxSimulatorRssBytes = Math.max(this.watched.maxSimulatorRssBytes, peakRss(pid));
          else if (s.comm !== 'postgres') service += currentRss(pid);
        }
        this.watched.maxServiceRssBytes = Math.max(this.watched.maxServiceRssBytes, service);
      }
      await sleep(100);
    }
  }

  async #watchHealth(): Promise<void> {
    while (!this.#stopped) {
      const started = performance.now();
      const phase = this.phase;
      const took = () => {
        const ms = performance.now() - started;
        this.watched.healthMs.push(ms);
        this.watched.healthMaxByPhase.set(phase, Math.max(ms, this.watched.healthMaxByPhase.get(phase) ?? 0));
      };
      try {
        const r = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await r.arrayBuffer();
        took();
        if (r.status >= 500 && r.status !== 503) this.watched.healthFailures.push(`status ${r.status}`);
      } catch (error) {
        took();
        this.watched.healthFailures.push((error as Error).message);
      }
      await sleep(250);
    }
  }
}

/** A process's resident memory now (VmRSS), in bytes; 0 once it is gone. */
export function currentRss(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
