// Starting the native simulator. Every tcpsim the service starts is bounded twice: by its own
// memory account (`--max-memory-mb`, sim-core/core/memory_budget.h), which stops a run with an
// error naming what grew, and by the operating system, an address-space limit (RLIMIT_AS) set by
// util-linux's prlimit(1) before tcpsim starts, so that what the account misses still cannot take
// the host. A simulator that runs runs (`run`, `serve`) also dies with the process that started
// it (tcpsim --parent-pid: PR_SET_PDEATHSIG), so that a worker or server killed by SIGKILL leaves no
// simulator behind.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface SimulatorLimits {
  /** Each run's memory account, MiB (tcpsim --max-memory-mb). */
  memoryMb?: number;
}

/**
 * The address-space limit of a simulator whose runs may account `memoryMb`: twice that (the
 * account counts what the run's structures hold, not the allocator's slack, a vector's copy while
 * it grows, or a connection's send buffers) plus 256 MiB for the program, its libraries and the
 * parsed scenario. A run stopped by its account (a flood into a 1 Mb/s link at 256 MiB) peaks at
 * 268 MB of resident memory.
 */
export function addressSpaceMb(memoryMb: number): number {
  return 2 * memoryMb + 256;
}

let prlimitPath: string | null | undefined;

/** util-linux's prlimit on PATH (every Linux distribution has it), or null. */
export function findPrlimit(): string | null {
  if (prlimitPath === undefined) {
    prlimitPath = null;
    for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
      const candidate = join(dir, 'prlimit');
      if (dir && existsSync(candidate)) {
        prlimitPath = candidate;
        break;
      }
    }
  }
  return prlimitPath;
}

/**
 * `tcpsim <command> ...args`, with the run's memory limit, the address-space limit that goes with
 * it (when prlimit is there; without it, as on macOS, the account alone bounds the run), and, for
 * the commands that run scenarios, death with this process.
 */
export function spawnSimulator(tcpsimPath: string, command: string, args: string[], limits: SimulatorLimits = {}): ChildProcessWithoutNullStreams {
  const runs = command === 'run' || command === 'serve';
  const own = [command, ...args];
  if (runs && limits.memoryMb !== undefined) own.push('--max-memory-mb', String(limits.memoryMb));
  if (runs && process.platform === 'linux') own.push('--parent-pid', String(process.pid));
  const prlimit = limits.memoryMb !== undefined ? findPrlimit() : null;
  if (prlimit === null) return spawn(tcpsimPath, own, { stdio: ['pipe', 'pipe', 'pipe'] });
  // prlimit sets the limit (soft and hard) and execs tcpsim: the same process, whose parent is us.
  const bytes = addressSpaceMb(limits.memoryMb!) * 1024 * 1024;
  return spawn(prlimit, [`--as=${bytes}:${bytes}`, '--', tcpsimPath, ...own], { stdio: ['pipe', 'pipe', 'pipe'] });
}
