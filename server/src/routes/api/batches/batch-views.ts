// GET /api/batches/:id answers from here. A batch's view (its progress counts and per-point
// statistics) costs the database a pass over the batch's runs: 40-60 ms for a sweep of 1000 runs,
// 120-260 ms for 100,000 runs; and the dashboard asks for it every 700 ms while the batch runs, as
// may any number of other clients. So:
// - A finished batch's view is computed once: done, failed and cancelled runs are final (a result
//   that arrives for a cancelled run is discarded), and batches are not deleted.
// - A running batch's view is computed again once it is older than `costFactor` times what
//   computing it takes, and at most `maxAgeMs`: watching a batch then costs the database at most
//   1/costFactor of its time, whatever the batch's size and however many clients watch. What it
//   takes is the least any computation of the batch's view took: a computation's time only grows
//   with what else happens (a server just started, a busy pool, a loaded machine), and one such
//   would otherwise leave a small batch's view seconds old. So a running batch's view is reused
//   only once it has been computed twice. Small batches, whose views take a few milliseconds, are
//   in effect computed on every read.
// - Readers that ask while a view is being computed wait for that computation.
// The views are kept as the answer's text, least recently used dropped first beyond `maxBytes`.

export interface BatchViewsOptions {
  /** A running batch's view is reused until it is this many times as old as the least computing it took. */
  costFactor: number;
  /** ... and never once it is this old. */
  maxAgeMs: number;
  /** The answers kept, in total (characters of their JSON text). */
  maxBytes: number;
  /** The clock, in milliseconds (tests give their own). */
  now?: () => number;
}

/** A batch's view as computed: the answer's text, and whether the batch has finished. */
export interface ComputedView {
  body: string;
  final: boolean;
}

interface Entry extends ComputedView {
  computedAt: number;
  /** The least a computation of this batch's view took (since it was last forgotten). */
  costMs: number;
  /** How many computations that least is of. */
  computations: number;
}

export const defaultBatchViewsOptions: BatchViewsOptions = { costFactor: 20, maxAgeMs: 5000, maxBytes: 64 * 2 ** 20 };

export class BatchViews {
  readonly #entries = new Map<string, Entry>();
  /** Computations under way, by batch; only the latest of a batch may keep its result. */
  readonly #computing = new Map<string, { token: object; computation: Promise<string | null> }>();
  #bytes = 0;
  readonly #now: () => number;

  constructor(private readonly options: BatchViewsOptions = defaultBatchViewsOptions) {
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * The view of batch `id`: kept, or computed by `compute` (null: no such batch, not kept).
   */
  get(id: string, compute: () => Promise<ComputedView | null>): Promise<string | null> {
    const entry = this.#entries.get(id);
    if (entry !== undefined && (entry.final || (entry.computations >= 2 && this.#now() - entry.computedAt < this.#maxAge(entry)))) {
      // Most recently used last.
      this.#entries.delete(id);
      this.#entries.set(id, entry);
      return Promise.resolve(entry.body);
    }
    const under = this.#computing.get(id);
    if (under !== undefined) return under.computation;
    const token = {};
    const computation = this.#compute(id, compute, token);
    this.#computing.set(id, { token, computation });
    return computation;
  }

  /**
   * Drops what is kept of batch `id`, and a computation under way from being kept: the batch
   * changed (it was cancelled), and the next read must see it.
   */
  forget(id: string): void {
    this.#drop(id);
    this.#computing.delete(id);
  }

  /** Drops everything kept and every computation under way from being kept (the database restarted). */
  forgetAll(): void {
    this.#entries.clear();
    this.#computing.clear();
    this.#bytes = 0;
  }

  /** The answers kept, in characters (for tests). */
  get bytes(): number {
    return this.#bytes;
  }

  #maxAge(entry: Entry): number {
    return Math.min(this.options.maxAgeMs, this.options.costFactor * entry.costMs);
  }

  async #compute(id: string, compute: () => Promise<ComputedView | null>, token: object): Promise<string | null> {
    const started = this.#now();
    const current = () => this.#computing.get(id)?.token === token;
    try {
      const view = await compute();
      // Not kept when forget() was called meanwhile: the view may predate the change.
      if (view !== null && current()) {
        const computedAt = this.#now();
        const before = this.#entries.get(id);
        const costMs = Math.min(computedAt - started, before?.costMs ?? Infinity);
        const computations = (before?.computations ?? 0) + 1;
        this.#drop(id);
        if (view.body.length <= this.options.maxBytes) {
          this.#entries.set(id, { ...view, computedAt, costMs, computations });
          this.#bytes += view.body.length;
          for (const [oldest, old] of this.#entries) {
            if (this.#bytes <= this.options.maxBytes) break;
            this.#entries.delete(oldest);
            this.#bytes -= old.body.length;
          }
        }
      }
      return view === null ? null : view.body;
    } finally {
      if (current()) this.#computing.delete(id);
    }
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#bytes -= entry.body.length;
  }
}
