// Long derivations in slices. A derivation written as a generator yields between units of work (a
// flow, a link, a block of trace rows); `runAll` runs it in one go, `runSliced` runs it in tasks of
// about `budgetMs`, giving the event loop back between them, so that deriving a large run's plot
// columns does not block the page for the whole derivation (a task over 50 ms is a long task in the
// Long Tasks API's terms). Both run the same code, so both give the same result.

/** A derivation that yields between slices of its work and returns its result. */
export type Slices<T> = Generator<void, T, void>;

/** Runs every slice at once. */
export function runAll<T>(work: Slices<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Thrown by runSliced when its signal aborted between two slices. */
export class SlicesAborted extends Error {
  constructor() {
    super('the derivation was abandoned');
    this.name = 'SlicesAborted';
  }
}

/** Gives the event loop back: scheduler.yield where the browser has it, else a macrotask. */
function yieldToLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs slices until the work is done or `budgetMs` has passed (a slice is never cut). */
export function runFor<T>(work: Slices<T>, budgetMs: number): IteratorResult<void, T> {
  const start = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done || performance.now() - start >= budgetMs) return step;
  }
}

/**
 * Runs the slices in tasks of about `budgetMs` each, yielding to the event loop between tasks.
 * If `signal` aborts, it stops before the next slice with SlicesAborted and leaves the work where
 * it was (another runSliced can go on with it).
 */
export async function runSliced<T>(work: Slices<T>, options: { budgetMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const budget = options.budgetMs ?? 30;
  for (;;) {
    if (options.signal?.aborted) throw new SlicesAborted();
    const step = runFor(work, budget);
    if (step.done) return step.value;
    await yieldToLoop();
  }
}
