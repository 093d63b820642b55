// The graphile-worker task that runs a job's runs: consecutive runs of one batch, claimed in
// groups while they are short and handed back to the queue when they are not.
//
// A job holds up to BATCH_JOB_RUNS runs of one grid point. The task claims a point's first run
// alone; once this worker knows how long the point's runs take, it claims as many at once as fit
// in the time a worker may keep a job's runs (`groupBudgetMs`).
// When that time is up, or a single run outlasts it, the runs it has not claimed go back to the
// queue as a new job that any worker can take, so long runs spread over the fleet as if each had a
// job of its own while short ones cost a claim and a write per group, not per run. Results are
// written several at a time (ResultWriter) while the simulator goes on with the next run.
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
 * How long runs of a grid point have taken on this worker (mean wall time per run), so that the
 * first claim of the point's next job can take as many runs as the budget holds.
 */
class RunTimes {
  readonly #byPoint = new Map<string, { ms: number; runs: number }>();

  meanMs(point: string | undefined): number | undefined {
    const t = point === undefined ? undefined : this.#byPoint.get(point);
    return t && t.runs > 0 ? t.ms / t.runs : undefined;
  }

  add(point: string, ms: number): void {
    let t = this.#byPoint.get(point);
    if (!t) {
      if (this.#byPoint.size >= 64) this.#byPoint.delete(this.#byPoint.keys().next().value!);
      this.#byPoint.set(point, (t = { ms: 0, runs: 0 }));
    }
    t.ms += ms;
    t.runs += 1;
  }
}

const pointKey = (batchId: string, point: number) => `${batchId}/${point}`;

/**
 * Runs no longer than this (mean, per grid point) are short enough for a worker to take the next
 * job while its simulator still works through the current one's: the gap between two jobs (the
 * last results written, the job completed, the next fetched and claimed: some 5 ms) would
 * otherwise idle the simulator once per job, 5% of a job of 32 runs of 3 ms. Longer runs gain
 * little from it, and a job taken ahead is one a free worker of the fleet does not get.
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
      const { batch, point, runs } = parseRunJobPayload(payload);
      const lock: JobLock = { jobId: Number(helpers.job.id), lockedBy: helpers.job.locked_by ?? '', attempts: helpers.job.attempts };
      const key = batch !== undefined && point !== undefined ? pointKey(batch, point) : undefined;
      const job = new JobRuns(options, times, key, runs, lock, helpers);
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
    /** The job's grid point (pointKey), when its payload says. */
    private readonly point: string | undefined,
    private readonly ids: number[],
    private readonly lock: JobLock,
    private readonly helpers: JobHelpers,
  ) {}

  async run(): Promise<void> {
    // A run that outlasts the budget: hand the rest back while it goes on.
    const timer = this.ids.length > 1 ? setTimeout(() => void this.#handOffRest(), groupBudgetMs) : undefined;
    try {
      while (this.#next < this.ids.length && !this.#handedOff) {
        if (this.#elapsedMs() >= groupBudgetMs) {
          if (await this.#handOffRest()) break;
        }
        const chunk = this.ids.slice(this.#next, this.#next + this.#chunkSize());
        this.#next += chunk.length;
        const claim = await this.options.runs.claim(chunk, this.lock, this.options.workerId, this.options.engine.kind);
        if (!claim.held) throw new Error(lostJobMessage);
        await this.#runAll(claim.runs);
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

  /** Every run claimed and handed to the engine, and the point's runs short (lookaheadRunMs). */
  queuedAndShort(): boolean {
    const mean = this.times.meanMs(this.point);
    return this.#next >= this.ids.length && mean !== undefined && mean <= lookaheadRunMs;
  }

  #elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** As many runs as the rest of the budget holds at the point's mean run time; one while that is unknown. */
  #chunkSize(): number {
    const mean = this.times.meanMs(this.point);
    if (mean === undefined) return 1;
    const fit = Math.floor((groupBudgetMs - this.#elapsedMs()) / Math.max(mean, 0.01));
    return Math.max(1, Math.min(fit, this.ids.length - this.#next));
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
        this.times.add(pointKey(run.batchId, run.pointIndex), performance.now() - began);
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
