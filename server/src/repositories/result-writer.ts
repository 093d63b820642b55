// Records written several to a statement: a record waits until `maxRows` have gathered or
// `maxDelayMs` has passed (or flush() is called), and one statement is in flight at a time. A task
// waits for its records only when its job ends, so the writes never hold up its simulator, and they
// cost a statement (or a transaction) per group of runs, not per run. Used for a batch's results
// (RunRepository.record) and a reproduction's records (ReproductionRepository.completeMany).
export class ResultWriter<T> {
  #queue: Array<{ item: T; resolve: (recorded: boolean) => void; reject: (error: Error) => void }> = [];
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> = Promise.resolve();

  /**
   * @param writeMany writes the items, returning for each whether it was recorded (false: its
   *   claim was superseded)
   */
  constructor(
    private readonly writeMany: (items: T[]) => Promise<boolean[]>,
    private readonly maxRows = 128,
    private readonly maxDelayMs = 100,
  ) {}

  /** Resolves when the record is written: true, or false when the claim was superseded. */
  write(item: T): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#queue.length >= this.maxRows) void this.flush();
      else this.#timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
    });
  }

  /** Writes what has gathered, after the statement in flight; resolves when that is done. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight = this.#inFlight.then(async () => {
      const entries = this.#queue;
      this.#queue = [];
      if (entries.length === 0) return;
      try {
        const recorded = await this.writeMany(entries.map((e) => e.item));
        entries.forEach((e, i) => e.resolve(recorded[i]));
      } catch (error) {
        for (const e of entries) e.reject(error as Error);
      }
    });
    return this.#inFlight;
  }
}
