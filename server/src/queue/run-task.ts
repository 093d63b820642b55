// The graphile-worker task that runs a job's runs: consecutive runs of one batch, claimed in
// groups while they are short and handed back to the queue when they are not.
//
// A job holds up to BATCH_JOB_RUNS consecutive runs of a batch (a grid point's replications, then
// the next point's). The task claims as many runs at once as their expected times fit in the time a
// worker may keep a job's runs (`groupBudgetMs`): a run's expected time is its point's mean on this
// worker, or, for a point not yet seen, `unseenPointFactor` times the longest point mean of its
// batch; with neither (the batch's first run here), the run is claimed alone.
// When that time is up, a single run outlasts it, or the next run is expected to, the runs it has
// not claimed go back to the queue as a new job that any worker can take, so long runs spread over
// the fleet as if each had a job of its own while short ones cost a claim and a write per group,
// not per run. Results are written several at a time (ResultWriter) while the simulator goes on
// with the next run.
//
// A run cancelled meanwhile is left as the API marked it; a run stopped by this worker's shutdown
// fails the job, so that the queue gives its runs to another worker. A job that is no longer this
// worker's (it was taken for dead and its job went elsewhere) fails too, which graphile-worker
// ignores for a job locked by someone else: only the job's holder may finish it.
import type { JobHelpers, Task } from 'graphile-worker';
import { recordedValues, type ClaimedRun, type JobLock, type ResultWriter, type RunRecord, type RunRepository } from '../repositories/runs.js';
import type { Engine, RunOutcome } from '../sim/engine.js';
import type { CancellationListener } from './cancellation.js';
import { parseRunJobPayload } from './jobs.js';
import { maxRunAttempts } from './names.js';

/** The error a job fails with when its worker stops: the queue runs it again elsewhere. */
export const shutdownRetryMessage = 'worker shutting down; the run will be retried';

/** The error a job fails with when its worker finds it is no longer the job's holder. */
export const lostJobMessage = 'this worker no longer holds the job (it was taken for dead); its runs are another worker\'s';

/** How long a worker keeps a job's runs to itself before handing the unclaimed ones back. */
export const groupBudgetMs = 1000;

export interface RunTaskOptions {
  workerId: string;
  runs: RunRepository;
  results: ResultWriter;
  engine: Engine;
  cancellation: CancellationListener;
  runTimeoutMs: number;
  log: (message: string) => void;
}

/**
 * A point not yet run on this worker is expected to take this many times the longest point mean
 * of its batch: neighbouring points of a sweep differ by one step of one parameter, and a claim
 * that guessed too short keeps runs on this worker that the fleet could have shared; one that
 * guessed too long only costs a claim more.
 */
export const unseenPointFactor = 4;

/**
 * How long runs have taken on this worker (mean wall time per run), per grid point and, for the
 * points not seen yet, the longest point mean of each batch; so that a claim can take as many runs
 * as the budget holds.
 */
class RunTimes {
  readonly #byPoint = new Map<string, { ms: number; runs: number }>();
  /** Per batch: the longest mean of its points, and the mean of all its runs. */
  readonly #byBatch = new Map<string, { longestPointMs: number; ms: number; runs: number }>();

  meanMs(point: RunPoint | undefined): number | undefined {
    const t = point === undefined ? undefined : this.#byPoint.get(point.key);
    return t && t.runs > 0 ? t.ms / t.runs : undefined;
  }

  /** The point's mean; for a point not seen yet, unseenPointFactor times its batch's longest. */
  expectedMs(point: RunPoint | undefined): number | undefined {
    if (point === undefined) return undefined;
    const mean = this.meanMs(point);
    if (mean !== undefined) return mean;
    const batch = this.#byBatch.get(point.batch);
    return batch ? unseenPointFactor * batch.longestPointMs : undefined;
  }

  /** The mean of the batch's runs on this worker, what a run of it typically takes. */
  batchMeanMs(point: RunPoint | undefined): number | undefined {
    const b = point === undefined ? undefined : this.#byBatch.get(point.batch);
    return b && b.runs > 0 ? b.ms / b.runs : undefined;
  }

  add(point: RunPoint, ms: number): void {
    const t = remembered(this.#byPoint, point.key, () => ({ ms: 0, runs: 0 }));
    t.ms += ms;
    t.runs += 1;
    const b = remembered(this.#byBatch, point.batch, () => ({ longestPointMs: 0, ms: 0, runs: 0 }));
    b.ms += ms;
    b.runs += 1;
    b.longestPointMs = Math.max(b.longestPointMs, t.ms / t.runs);
  }
}

/** The entry of `key`, made by `make` if absent; the map keeps the 64 entries made last. */
function remembered<T>(map: Map<string, T>, key: string, make: () => T): T {
  let entry = map.get(key);
  if (entry === undefined) {
    if (map.size >= 64) map.delete(map.keys().next().value!);
    map.set(key, (entry = make()));
  }
  return entry;
}

/** A run's grid point, as RunTimes knows it. */
interface RunPoint {
  batch: string;
  /** `<batch>/<point>` */
  key: string;
}

const runPoint = (batch: string, point: number): RunPoint => ({ batch, key: `${batch}/${point}` });

/**
 * Runs no longer than this (the mean of the batch's runs on this worker) are short enough for a
 * worker to take the next job while its simulator still works through the current one's: the gap
 * between two jobs (the last results written, the job completed, the next fetched and claimed: some
 * 5 ms) would otherwise idle the simulator once per job, 5% of a job of 32 runs of 3 ms. Longer
 * runs gain little from it, and a job taken ahead is one a free worker of the fleet does not get.
 */
export const lookaheadRunMs = 5;

export interface RunTask {
  task: Task;
  /** Whether every job this task runs has claimed all its runs, and those are short (lookaheadRunMs). */
  allQueuedAndShort(): boolean;
  /** Jobs this task runs now. */
  readonly active: number;
}

export function makeRunTask(options: RunTaskOptions): RunTask {
  const times = new RunTimes();
  const active = new Set<JobRuns>();
  return {
    task: async (payload, helpers) => {
      const { batch, points, runs } = parseRunJobPayload(payload);
      const lock: JobLock = { jobId: Number(helpers.job.id), lockedBy: helpers.job.locked_by ?? '', attempts: helpers.job.attempts };
      const runPoints = runs.map((_, i) => (batch !== undefined && points !== undefined ? runPoint(batch, points[i]) : undefined));
      const job = new JobRuns(options, times, runPoints, runs, lock, helpers);
      active.add(job);
      try {
        await job.run();
      } finally {
        active.delete(job);
      }
    },
    allQueuedAndShort: () => [...active].every((job) => job.queuedAndShort()),
    get active() {
      return active.size;
    },
  };
}

class JobRuns {
  /** Index in `ids` of the first run not yet claimed. */
  #next = 0;
  readonly #started = performance.now();
  #handOff: Promise<boolean> | undefined;
  #handedOff = false;
  readonly #writes: Promise<boolean>[] = [];

  constructor(
    private readonly options: RunTaskOptions,
    private readonly times: RunTimes,
    /** Each run's grid point, when the job's payload says. */
    private readonly points: Array<RunPoint | undefined>,
    private readonly ids: number[],
    private readonly lock: JobLock,
    private readonly helpers: JobHelpers,
  ) {}

  async run(): Promise<void> {
    // A run that outlasts the budget: hand the rest back while it goes on.
    const timer = this.ids.length > 1 ? setTimeout(() => void this.#handOffRest(), groupBudgetMs) : undefined;
    try {
      for (;;) {
        while (this.#next < this.ids.length && !this.#handedOff) {
          if (this.#elapsedMs() >= groupBudgetMs) {
            if (await this.#handOffRest()) break;
          }
          let count = this.#claimSize();
          if (count === 0) {
            if (await this.#handOffRest()) break;
            count = 1; // They could not be handed back: run them here.
          }
          const chunk = this.ids.slice(this.#next, this.#next + count);
          this.#next += chunk.length;
          const claim = await this.options.runs.claim(chunk, this.lock, this.options.workerId, this.options.engine.kind);
          if (!claim.held) throw new Error(lostJobMessage);
          await this.#runAll(claim.runs);
        }
        // A hand-back under way is waited for: the runs it moves are no longer this job's once it
        // is done. One that failed left them here, to be claimed after all.
        if (this.#handOff === undefined || (await this.#handOff)) break;
      }
      // The job is finished only when every one of its runs is recorded (or was handed back).
      void this.options.results.flush();
      const recorded = await Promise.all(this.#writes);
      if (recorded.includes(false)) throw new Error(lostJobMessage);
      // A result recorded for every run of the job: none can be unfinished, nothing to ask.
      if (recorded.length === this.ids.length) return;
      const left = await this.options.runs.unfinished(this.ids, this.lock.jobId);
      if (left.length > 0) throw new Error(`runs ${left.join(', ')} of the job are unfinished; the job runs again`);
    } finally {
      clearTimeout(timer);
      // Let writes in flight settle before graphile-worker acts on the outcome.
      void this.options.results.flush();
      await Promise.allSettled(this.#writes);
    }
  }

  /** Every run claimed and handed to the engine, and the batch's runs short (lookaheadRunMs). */
  queuedAndShort(): boolean {
    if (this.#next < this.ids.length) return false;
    const mean = this.times.batchMeanMs(this.points[this.ids.length - 1]);
    return mean !== undefined && mean <= lookaheadRunMs;
  }

  #elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /**
   * How many of the next runs to claim: as many as the rest of the budget holds at their expected
   * times, up to the first whose time cannot be guessed, and at least one; the next run alone when
   * nothing of the batch has run on this worker yet; none (0: hand the rest back now, rather than
   * when the budget is spent) when the next run is expected to outlast the budget left.
   */
  #claimSize(): number {
    const first = this.times.expectedMs(this.points[this.#next]);
    if (first === undefined) return 1;
    let left = groupBudgetMs - this.#elapsedMs();
    if (first > left && this.#next > 0) return 0;
    let n = 0;
    for (let k = this.#next; k < this.ids.length; ++k) {
      const expected = this.times.expectedMs(this.points[k]);
      if (expected === undefined) break;
      left -= Math.max(expected, 0.01);
      if (left < 0) break;
      n += 1;
    }
    return Math.max(1, n);
  }

  /** Moves the unclaimed runs to a job of their own; true once done (also when none were left). */
  #handOffRest(): Promise<boolean> {
    this.#handOff ??= (async () => {
      const from = this.#next;
      const rest = this.ids.slice(from);
      if (rest.length === 0) return true;
      // Nothing more is claimed here while they move (a claim would race the move for them).
      this.#next = this.ids.length;
      try {
        await this.options.runs.handOff(rest, this.lock);
        this.#handedOff = true;
        return true;
      } catch (error) {
        this.options.log(`handing runs back to the queue failed: ${(error as Error).message}`);
        this.#next = from;
        this.#handOff = undefined; // Tried again at the next claim.
        return false;
      }
    })();
    return this.#handOff;
  }

  /** Runs the claimed runs in order, all queued at once when the engine takes them. */
  async #runAll(claimed: ClaimedRun[]): Promise<void> {
    // One controller per batch (a job's runs are one batch's): a cancelled batch or this worker's
    // shutdown stops its runs, the one running and those queued behind it.
    const stops = new Map<string, AbortController>();
    const onShutdown = () => stops.forEach((controller) => controller.abort());
    this.helpers.abortSignal?.addEventListener('abort', onShutdown, { once: true });
    const signalOf = (batchId: string) => {
      let controller = stops.get(batchId);
      if (!controller) stops.set(batchId, (controller = this.options.cancellation.track(batchId)));
      if (this.helpers.abortSignal?.aborted) controller.abort();
      return controller.signal;
    };
    const outcomes: Array<Promise<RunOutcome> | undefined> = [];
    const start = (k: number) => {
      const run = claimed[k];
      if (run.attempt > maxRunAttempts) return undefined;
      return this.options.engine.run(run.scenarioText, { seed: run.seed, trace: run.trace, timeoutMs: this.options.runTimeoutMs, signal: signalOf(run.batchId), values: recordedValues });
    };
    try {
      // An engine that queues runs gets the whole group at once (it feeds its simulator the next
      // run while this task records the last); otherwise one run at a time.
      if (this.options.engine.pipelined) claimed.forEach((_, k) => (outcomes[k] = start(k)));
      for (let k = 0; k < claimed.length; ++k) {
        const run = claimed[k];
        if (!(k in outcomes)) outcomes[k] = start(k);
        const pending = outcomes[k];
        if (!pending) {
          this.#record(run, { status: 'failed', error: `the run was started ${maxRunAttempts} times and its worker stopped each time` });
          continue;
        }
        const began = performance.now();
        const outcome = await pending;
        this.times.add(runPoint(run.batchId, run.pointIndex), performance.now() - began);
        if (outcome.ok) {
          // The summary's text as the engine had it (serve's answer line), parsed by nobody here.
          this.#record(run, { status: 'done', summaryText: outcome.summaryText ?? JSON.stringify(outcome.summary), wallSeconds: outcome.wallSeconds, values: outcome.values });
        } else if (outcome.kind === 'aborted') {
          // Shut down: the job fails and its unfinished runs run again later. Cancelled: the runs
          // are already marked.
          if (this.helpers.abortSignal?.aborted) throw new Error(shutdownRetryMessage);
        } else if (outcome.kind === 'scenario') {
          this.#record(run, { status: 'failed', error: `${outcome.path}: ${outcome.problem}` });
        } else if (outcome.kind === 'timeout') {
          this.#record(run, { status: 'failed', error: `${outcome.message} (RUN_TIMEOUT_S)` });
        } else {
          this.#record(run, { status: 'failed', error: outcome.message });
        }
      }
    } catch (error) {
      // A run queued behind the one that ended the loop early does not start.
      stops.forEach((controller) => controller.abort());
      throw error;
    } finally {
      this.helpers.abortSignal?.removeEventListener('abort', onShutdown);
      stops.forEach((controller, batchId) => this.options.cancellation.release(batchId, controller));
    }
  }

  #record(run: ClaimedRun, record: RunRecord): void {
    this.#writes.push(this.options.results.write(run, record));
  }
}
