// Processes as /proc shows them (Linux): a process's parent, command and state, and what descends
// from it, for tests that check which processes a worker or a server started, and that none is
// left behind.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  comm: string;
  /** proc(5) field 3: R, S, D, Z (a zombie: ended, not yet reaped), ... */
  state: string;
  ppid: number;
  nice: number;
}

/** A process's (or thread's) stat, from /proc/<pid>/stat (proc(5): fields 2, 3, 4 and 19). */
export function stat(path: string): ProcStat | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' '); // From field 3, state.
    return { comm: text.slice(text.indexOf('(') + 1, close), state: fields[0], ppid: Number(fields[1]), nice: Number(fields[16]) };
  } catch {
    return undefined; // Gone meanwhile.
  }
}

/** Every process descending from `pid`. */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(`/proc/${entry}/stat`);
    if (s) parent.set(Number(entry), s.ppid);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, ppid] of parent) {
      if (ppid === p) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Whether `pid` is a process still running (a zombie has ended). */
export function running(pid: number): boolean {
  const s = stat(`/proc/${pid}/stat`);
  return s !== undefined && s.state !== 'Z';
}

/** The simulators (tcpsim) among `pid`'s descendants. */
export function simulatorsOf(pid: number): number[] {
  return descendants(pid).filter((p) => stat(`/proc/${p}/stat`)?.comm === 'tcpsim');
}
