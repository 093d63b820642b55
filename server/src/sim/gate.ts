// Admission for synchronous runs in the API process: at most `concurrent` at once, at most
// `waiting` queued behind them; beyond that a request is refused at once (429) rather than piling
// up.
import { RequestError } from '../responses.js';

export class Gate {
  #active = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    private readonly concurrent: number,
    private readonly waiting: number,
    /** Retry-After of a refusal: about when a place frees up. */
    private readonly retryAfterS = 1,
  ) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.concurrent) {
      if (this.#queue.length >= this.waiting) {
        throw new RequestError(429, `the server is running ${this.#active} synchronous runs and has ${this.#queue.length} waiting; try again shortly or submit a batch`, {
          retryAfterS: this.retryAfterS,
        });
      }
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await fn();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}
