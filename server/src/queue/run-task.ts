// Running a job's runs: consecutive runs of one batch or one reproduction, claimed in groups while
// they are short and handed back to the queue when they are not. The graphile-worker task of a
// batch's jobs is here (makeRunTask); a reproduction's is in reproduction-tasks.ts, through the
// same JobRunner with a JobRunKind of its own.
//
// A job holds up to BATCH_JOB_RUNS consecutive runs (a grid point's replications, then the next
// point's). The runner claims as many runs at once as their expected times fit in the time a
// worker may keep a job's runs (`groupBudgetMs`): a run's expected time is its point's mean on this
// worker, or, for a point not yet seen, `unseenPointFactor` times the longest point mean of its
// batch; with neither (the batch's first run here), the run is claimed alone.
// When that time is up, a single run outlasts it, or the next run is expected to, the runs it has
// not claimed go back to the queue as a new job that any worker can take, so long runs spread over
// the fleet as if each had a job of its own while short ones cost a claim and a write per group,
// not per run. A batch's results are written several at a time (ResultWriter) while the simulator
// goes on with the next run.
//
// A run cancelled meanwhile is left as the API marked it; a run stopped by this worker's shutdown
// fails the job, so that the queue gives its runs to another worker. A job that is no longer this
// worker's (it was taken for dead and its job went elsewhere) fails too, which graphile-worker
// ignores for a job locked by someone else: only the job's holder may finish it.
import type { JobHelpers, Task } from 'graphile-worker';
import type { ResultWriter } from '../repositories/result-writer.js';
import { recordedValues, type ClaimedRun, type RunRepository, type RunResultEntry } from '../repositories/runs.js';
import type { Engine, RunOutcome } from '../sim/engine.js';
import type { CancellationListener } from './cancellation.js';
import { parseRunJobPayload, type JobLock } from './jobs.js';
import { maxRunAttempts } from './names.js';

/** The error a job fails with when its worker stops: the queue runs it again elsewhere. */
export const shutdownRetryMessage = 'worker shutting down; the run will be retried';

/** The error a job fails with when its worker finds it is no longer the job's holder. */
export const lostJobMessage = 'this worker no longer holds the job (it was taken for dead); its runs are another worker\'s';

/** How long a worker keeps a job's runs to itself before handing the unclaimed ones back. */
export const groupBudgetMs = 1000;

export interface JobRunnerOptions {
  /** Whether runs are handed to the simulator a group at once (Engine.pipelined). */
  pipelined: boolean;
  /** Whether this worker still holds the job (queue/jobs.ts jobHeld). */
  jobHeld: (lock: JobLock) => Promise<boolean>;
  cancellation: CancellationListener;
  log: (message: string) => void;
}

/** A run's end as its kind records it: the engine's successful outcome, or why the run failed. */
export type RunResult = { ok: true; outcome: Extract<RunOutcome, { ok: true }> } | { ok: false; error: string };

/**
 * A kind of run that jobs hold (a batch's, a reproduction's): how its runs are claimed under the
 * job's lock, started, recorded and handed back. Run ids are those of the job's payload.
 */
export interface JobRunKind<C extends { attempt: number }> {
  /**
   * Claims those of `ids` that are the job's and unfinished, in the order asked (each claim
   * increments the run's attempt); held false, nothing claimed, when the job is no longer this
   * worker's.
   */
  claim(ids: number[], lock: JobLock): Promise<{ held: boolean; runs: C[] }>;
  /** Moves those of `ids` that are the job's and unfinished to a job of their own. */
  handOff(ids: number[], lock: JobLock): Promise<unknown>;
  /** Those of `ids` that are the job's and unfinished. */
  unfinished(ids: number[], lock: JobLock): Promise<number[]>;
  /** The batch or reproduction whose cancellation stops the run. */
  owner(run: C): string;
  /** The run's grid point (whose runs take about as long as each other). */
  point(run: C): RunPoint;
  /** Runs it on the engine. */
  start(run: C, signal: AbortSignal): Promise<RunOutcome>;
  /** Records the run's end: true, or false when its claim was superseded (the run is another worker's, or cancelled). */
  record(run: C, result: RunResult): Promise<boolean>;
  /** Writes at once the records that record() keeps to write several together (the job is ending). */
  flush?(): void;
}

/**
 * A point not yet run on this worker is expected to take this many times the longest point mean
 * of its batch: neighbouring points of a sweep differ by one step of one parameter, and a claim
 * that guessed too short keeps runs on this worker that the fleet could have shared; one that
 * guessed too long only costs a claim more.
 */
export const unseenPointFactor = 4;

/**
 * How long runs have taken on this worker (mean wall time per run, as JobRuns.#runMs measures it),
 * per grid point and, for the points not seen yet, the longest point mean of each batch; so that a
 * claim can take as many runs as the budget holds.
 */
export class RunTimes {
  readonly #byPoint = new Map<string, { batch: string; ms: number; runs: number }>();
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
    const t = remembered(this.#byPoint, point.key, () => ({ batch: point.batch, ms: 0, runs: 0 }));
    t.ms += ms;
    t.runs += 1;
    const b = remembered(this.#byBatch, point.batch, () => ({ longestPointMs: 0, ms: 0, runs: 0 }));
    b.ms += ms;
    b.runs += 1;
    // The longest of the points' means as they are now, not the longest any mean has been: a first
    // run that paid for something once (a reproduction's plan built in the module, a cold
    // simulator) would otherwise keep every unseen point's guess high for the batch's whole life.
    let longest = 0;
    for (const p of this.#byPoint.values()) if (p.batch === point.batch) longest = Math.max(longest, p.ms / p.runs);
    b.longestPointMs = longest;
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
export interface RunPoint {
  /** The batch or reproduction. */
  batch: string;
  /** `<batch>/<point>` */
  key: string;
}

/** Point `point` of batch (or reproduction) `owner`. */
export const runPoint = (owner: string, point: number): RunPoint => ({ batch: owner, key: `${owner}/${point}` });

/**
 * Runs no longer than this (the mean of the batch's runs on this worker) are short enough for a
 * worker to take the next job while its simulator still works through the current one's: the gap
 * between two jobs (the last results written, the job completed, the next fetched and claimed: some
 * 5 ms) would otherwise idle the simulator once per job, 5% of a job of 32 runs of 3 ms. Longer
 * runs gain little from it, and a job taken ahead is one a free worker of the fleet does not get.
 */
export const lookaheadRunMs = 5;

/**
 * Runs jobs' runs, of whatever kind, on one worker: keeps what their runs took (to size the next
 * claims) and which jobs it runs now (to know when another job may queue behind them).
 */
export class JobRunner {
  readonly #times = new RunTimes();
  readonly #active = new Set<{ queuedAndShort(): boolean }>();

  constructor(private readonly options: JobRunnerOptions) {}

  /** Runs the job's runs `ids` of `kind`; `points[i]` is the grid point of `ids[i]`, when the payload says. */
  async run<C extends { attempt: number }>(kind: JobRunKind<C>, ids: number[], points: Array<RunPoint | undefined>, helpers: JobHelpers): Promise<void> {
    const lock: JobLock = { jobId: Number(helpers.job.id), lockedBy: helpers.job.locked_by ?? '', attempts: helpers.job.attempts };
    const job = new JobRuns(this.options, this.#times, kind, points, ids, lock, helpers);
    this.#active.add(job);
    try {
      await job.run();
    } finally {
      this.#active.delete(job);
    }
  }

  /** Whether every job this runner runs has claimed all its runs, and those are short (lookaheadRunMs). */
  allQueuedAndShort(): boolean {
    return [...this.#active].every((job) => job.queuedAndShort());
  }

  /** Jobs this runner runs now. */
  get active(): number {
    return this.#active.size;
  }
}

export interface RunTaskOptions {
  runner: JobRunner;
  workerId: string;
  runs: RunRepository;
  results: ResultWriter<RunResultEntry>;
  engine: Engine;
  runTimeoutMs: number;
}

/** The task of a batch's jobs. */
export function makeRunTask(options: RunTaskOptions): Task {
  const { runs, results, engine, workerId, runTimeoutMs } = options;
  const kind: JobRunKind<ClaimedRun> = {
    claim: (ids, lock) => runs.claim(ids, lock, workerId, engine.kind),
    handOff: (ids, lock) => runs.handOff(ids, lock),
    unfinished: (ids, lock) => runs.unfinished(ids, lock.jobId),
    owner: (run) => run.batchId,
    point: (run) => runPoint(run.batchId, run.pointIndex),
    start: (run, signal) => engine.run(run.scenarioText, { seed: run.seed, trace: run.trace, timeoutMs: runTimeoutMs, signal, values: recordedValues }),
    flush: () => void results.flush(),
    record: (run, result) =>
      results.write({
        run,
        record: result.ok
          // The summary's text as the engine had it (serve's answer line), parsed by nobody here.
          ? { status: 'done', summaryText: result.outcome.summaryText ?? JSON.stringify(result.outcome.summary), wallSeconds: result.outcome.wallSeconds, values: result.outcome.values }
          : { status: 'failed', error: result.error },
      }),
  };
  return async (payload, helpers) => {
    const { batch, points, runs: ids } = parseRunJobPayload(payload);
    const runPoints = ids.map((_, i) => (batch !== undefined && points !== undefined ? runPoint(batch, points[i]) : undefined));
    await options.runner.run(kind, ids, runPoints, helpers);
  };
}

class JobRuns<C extends { attempt: number }> {
  /** Index in `ids` of the first run not yet claimed. */
  #next = 0;
  readonly #started = performance.now();
  #handOff: Promise<boolean> | undefined;
  #handedOff = false;
  readonly #writes: Promise<boolean>[] = [];

  constructor(
    private readonly options: JobRunnerOptions,
    private readonly times: RunTimes,
    private readonly kind: JobRunKind<C>,
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
          const claim = await this.kind.claim(chunk, this.lock);
          if (!claim.held) throw new Error(lostJobMessage);
          await this.#runAll(claim.runs);
        }
        // A hand-back under way is waited for: the runs it moves are no longer this job's once it
        // is done. One that failed left them here, to be claimed after all.
        if (this.#handOff === undefined || (await this.#handOff)) break;
      }
      // The job is finished only when every one of its runs is recorded (or was handed back).
      this.kind.flush?.();
      const recorded = await Promise.all(this.#writes);
      // A record refused: its run was cancelled after it finished (its batch or reproduction was
      // cancelled, or the reproduction failed), or this worker no longer holds the job. Only the
      // latter fails the job; a job whose runs were stopped is done.
      if (recorded.includes(false) && !(await this.options.jobHeld(this.lock))) throw new Error(lostJobMessage);
      // A result recorded for every run of the job: none can be unfinished, nothing to ask.
      if (!recorded.includes(false) && recorded.length === this.ids.length) return;
      const left = await this.kind.unfinished(this.ids, this.lock);
      if (left.length > 0) throw new Error(`runs ${left.join(', ')} of the job are unfinished; the job runs again`);
    } finally {
      clearTimeout(timer);
      // Let writes in flight settle before graphile-worker acts on the outcome.
      this.kind.flush?.();
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
        await this.kind.handOff(rest, this.lock);
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
  async #runAll(claimed: C[]): Promise<void> {
    // One controller per batch or reproduction (a job's runs are one's): its cancellation or this
    // worker's shutdown stops its runs, the one running and those queued behind it.
    const stops = new Map<string, AbortController>();
    const onShutdown = () => stops.forEach((controller) => controller.abort());
    this.helpers.abortSignal?.addEventListener('abort', onShutdown, { once: true });
    const signalOf = (owner: string) => {
      let controller = stops.get(owner);
      if (!controller) stops.set(owner, (controller = this.options.cancellation.track(owner)));
      if (this.helpers.abortSignal?.aborted) controller.abort();
      return controller.signal;
    };
    const outcomes: Array<Promise<RunOutcome> | undefined> = [];
    const start = (k: number) => {
      const run = claimed[k];
      if (run.attempt > maxRunAttempts) return undefined;
      return this.kind.start(run, signalOf(this.kind.owner(run)));
    };
    try {
      // An engine that queues runs gets the whole group at once (it feeds its simulator the next
      // run while this task records the last); otherwise one run at a time.
      if (this.options.pipelined) claimed.forEach((_, k) => (outcomes[k] = start(k)));
      for (let k = 0; k < claimed.length; ++k) {
        const run = claimed[k];
        if (!(k in outcomes)) outcomes[k] = start(k);
        const pending = outcomes[k];
        if (!pending) {
          this.#record(run, { ok: false, error: `the run was started ${maxRunAttempts} times and its worker stopped each time` });
          continue;
        }
        const began = performance.now();
        const outcome = await pending;
        this.times.add(this.kind.point(run), this.#runMs(outcome, performance.now() - began));
        if (outcome.ok) {
          this.#record(run, { ok: true, outcome });
        } else if (outcome.kind === 'aborted') {
          // Shut down: the job fails and its unfinished runs run again later. Cancelled: the runs
          // are already marked.
          if (this.helpers.abortSignal?.aborted) throw new Error(shutdownRetryMessage);
        } else if (outcome.kind === 'scenario') {
          this.#record(run, { ok: false, error: `${outcome.path}: ${outcome.problem}` });
        } else if (outcome.kind === 'timeout') {
          this.#record(run, { ok: false, error: `${outcome.message} (RUN_TIMEOUT_S)` });
        } else if (outcome.kind === 'memory') {
          // Failed for good: the same run would grow the same way anywhere.
          this.#record(run, { ok: false, error: `${outcome.message} (MAX_RUN_MEMORY_MB)` });
        } else {
          this.#record(run, { ok: false, error: outcome.message });
        }
      }
    } catch (error) {
      // A run queued behind the one that ended the loop early does not start.
      stops.forEach((controller) => controller.abort());
      throw error;
    } finally {
      this.helpers.abortSignal?.removeEventListener('abort', onShutdown);
      stops.forEach((controller, owner) => this.options.cancellation.release(owner, controller));
    }
  }

  /**
   * What a run took, for RunTimes: the wait for its outcome, or, from an engine that queues runs,
   * the time the engine measured: such an engine answers short runs in batches (tcpsim serve every
   * 20 ms), so that the wait for the first answer of a batch holds the whole batch's time and the
   * others' nothing, and the longest point mean of a sweep's one-run points would be the batch's.
   */
  #runMs(outcome: RunOutcome, waitedMs: number): number {
    if (this.options.pipelined && outcome.ok && Number.isFinite(outcome.wallSeconds) && outcome.wallSeconds > 0) return outcome.wallSeconds * 1000;
    return waitedMs;
  }

  #record(run: C, result: RunResult): void {
    this.#writes.push(this.kind.record(run, result));
  }
}
