// Scheduling priority of batch work: worker processes lower their own (every thread), and the
// simulators they start inherit it, so that the API and PostgreSQL keep the processor when batches
// saturate the machine.
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Sets the nice value of every thread of this process. Under Linux the nice value is a per-thread
 * attribute (getpriority(2), BUGS; PRIO_PROCESS with a thread id sets that thread) and a new thread
 * or child process inherits its creator's, so the threads Node already runs are set one by one;
 * those started later, and child processes, inherit the main thread's. Elsewhere the process's
 * priority is set.
 */
export function lowerPriority(nice: number): void {
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    // No /proc: not Linux.
  }
  if (threads.length === 0) {
    setPriority(nice);
    return;
  }
  for (const tid of threads) {
    try {
      setPriority(Number(tid), nice);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
