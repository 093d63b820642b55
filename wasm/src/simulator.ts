// The Simulator: a small pool of workers (Web Workers or Node worker threads, see WorkerHost), each
// running one instance of the engine. Requests queue for a free worker; a worker that is cancelled
// (AbortSignal), runs out of memory, fails inside the module or dies is terminated, which frees
// everything it held, and a fresh one is started when the next request needs it.
import { OutOfMemoryError, ScenarioError, SimulationError } from './errors.js';
import type { Reply, RequestBody, RunRecord, WorkerError, WorkerMessage } from './protocol.js';
import type {
  Experiment,
  ExperimentOptions,
  ExperimentOutcome,
  ExperimentPlan,
  ExperimentStepOptions,
  GridPlan,
  GridRequest,
  HeapStats,
  Paper,
  Progress,
  Result,
  RunOptions,
  SampleStatistics,
  Scenario,
  SchemaName,
  SimulationResult,
  Validation,
} from './types.js';

/** One worker, whatever the platform. */
export interface WorkerPort {
  post(message: WorkerMessage): void;
  /**
   * Stops the worker; resolves once it has exited and its memory is free (a Web Worker reports no
   * such moment: at once).
   */
  terminate(): Promise<void>;
  /** Whether a request is running; a Node worker thread that is idle must not keep the process alive. */
  setBusy(busy: boolean): void;
}

/** How a platform loads the compiled module and starts workers. */
export interface WorkerHost {
  /** The engine's WebAssembly module, compiled once and shared by every worker. */
  loadModule(): Promise<WebAssembly.Module>;
  /** Starts a worker; `onFailure` reports a worker that died or failed outside a request. */
  spawn(onReply: (reply: Reply) => void, onFailure: (error: Error) => void): WorkerPort;
  /** How many workers may run at once unless the caller says. */
  defaultMaxWorkers(): number;
}

export interface SimulatorOptions {
  /** Runs in parallel; more requests wait for a free worker. */
  maxWorkers?: number;
}

export interface SimulatorStats {
  /** Live workers (idle or busy). */
  workers: number;
  busy: number;
  /** Requests waiting for a worker. */
  queued: number;
  /** Workers terminated that have not yet exited: they still hold their memory, and count against maxWorkers. */
  exiting: number;
}

interface Job {
  body: RequestBody;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onProgress?: (progress: Progress) => void;
  /** experimentRuns: runs of the request finished so far. */
  onRuns?: (done: number) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  port: WorkerPort;
  job?: Job;
  requestId?: number;
  retired: boolean;
}

function errorFromWorker(error: WorkerError): Error {
  switch (error.kind) {
    case 'scenario':
      return new ScenarioError(error.path ?? '$', error.problem ?? error.message);
    case 'memory':
      return new OutOfMemoryError(error.message);
    case 'internal':
      return new SimulationError(`internal error: ${error.message}`);
    case 'crash':
      return new SimulationError(`the simulation module failed: ${error.message}`);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** RunOptions.maxRecordedBytes unless the caller says. */
export const defaultMaxRecordedBytes = 2 * 1024 ** 3;

const experimentSource = (experiment: string | Experiment) => (typeof experiment === 'string' ? experiment : JSON.stringify(experiment));

const scenarioText = (scenario: Scenario | string) =>
  typeof scenario === 'string' ? scenario : JSON.stringify(scenario);

export class Simulator {
  readonly #host: WorkerHost;
  readonly #maxWorkers: number;
  #module?: WebAssembly.Module;
  #loading?: Promise<void>;
  readonly #slots = new Set<Slot>();
  // The worker started while the module loads (see #pump).
  #starting?: Slot;
  readonly #idle: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  // Terminated workers not yet exited (see #retire).
  #exiting = 0;

  constructor(host: WorkerHost, options: SimulatorOptions = {}) {
    this.#host = host;
    this.#maxWorkers = Math.max(1, Math.floor(options.maxWorkers ?? host.defaultMaxWorkers()));
  }

  /**
   * Runs a scenario (a document or its JSON text) in a worker. Rejects with ScenarioError for bad
   * input, OutOfMemoryError, SimulationError, or the signal's reason when aborted.
   */
  async runScenario(scenario: Scenario | string, options: RunOptions = {}): Promise<SimulationResult> {
    const body: RequestBody = { type: 'run', text: scenarioText(scenario), maxRecordedBytes: options.maxRecordedBytes ?? defaultMaxRecordedBytes };
    if (options.trace !== undefined) body.trace = options.trace;
    if (options.seed !== undefined) body.seed = options.seed;
    return (await this.#submit(body, options)) as SimulationResult;
  }

  /** Checks a scenario as `tcpsim validate` does; an invalid one resolves with the CLI's path and problem. */
  async validateScenario(scenario: Scenario | string): Promise<Validation> {
    try {
      const normalised = await this.#submit({ type: 'validate', text: scenarioText(scenario) });
      return { valid: true, scenario: normalised as Scenario };
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      return { valid: false, error: { path: e.path, problem: e.problem, message: e.message } };
    }
  }

  /**
   * Plans a sweep as `tcpsim grid` does (and the service plans its batches): every value of the grid
   * checked on its own, then every combination, the first pointer varying slowest. Rejects with
   * ScenarioError whose path is in the request's terms ("$.grid['/tcp/flavor'][1]").
   */
  async planGrid(request: GridRequest | string): Promise<GridPlan> {
    const text = typeof request === 'string' ? request : JSON.stringify(request);
    return (await this.#submit({ type: 'planGrid', text })) as GridPlan;
  }

  /**
   * Statistics of several samples at once, computed by sim-core as an experiment report's cells
   * are (the values summed in the order given; the Student-t interval at `level`, 0.95 by default),
   * so that the same values give the same bits wherever they were simulated.
   */
  async summarizeSamples(samples: number[][], level = 0.95): Promise<SampleStatistics[]> {
    return (await this.#submit({ type: 'summarizeSamples', text: JSON.stringify({ samples, level }) })) as SampleStatistics[];
  }

  /** The built-in scenarios' names, sorted. */
  async listPresets(): Promise<string[]> {
    return (await this.#submit({ type: 'presets' })) as string[];
  }

  /** A built-in scenario; rejects for an unknown name. */
  async getPreset(name: string): Promise<Scenario> {
    const preset = await this.#submit({ type: 'preset', name });
    if (preset === null) throw new RangeError(`unknown preset "${name}"`);
    return preset as Scenario;
  }

  /** The papers, theses and RFCs that presets and experiments cite (a scenario's `paper.id`). */
  async listPapers(): Promise<Paper[]> {
    return (await this.#submit({ type: 'papers' })) as Paper[];
  }

  /** The JSON Schema of scenarios, results, experiments or experiment reports, as compiled into the module. */
  async getSchema(which: SchemaName): Promise<object> {
    return (await this.#submit({ type: 'schema', which })) as object;
  }

  /** The built-in experiments' names (a seed paper's table or figure each), sorted. */
  async listExperiments(): Promise<string[]> {
    return (await this.#submit({ type: 'experiments' })) as string[];
  }

  /** A built-in experiment's document; rejects for an unknown name. */
  async getExperiment(name: string): Promise<Experiment> {
    const experiment = await this.#submit({ type: 'experiment', name });
    if (experiment === null) throw new RangeError(`unknown experiment "${name}"`);
    return experiment as Experiment;
  }

  /**
   * Runs an experiment (a built-in name, or a document) and builds its report: the same report, to
   * the bit, as `tcpsim reproduce <name> [--quick] --json`. The runs are spread over the workers in
   * chunks of consecutive indices (the CLI's pool takes them one by one); the report is built from
   * the records in run order, so it does not depend on which worker ran what. Rejects with
   * ScenarioError for a bad experiment (path in the experiment document), or the signal's reason.
   */
  async runExperiment(experiment: string | Experiment, options: ExperimentOptions = {}): Promise<ExperimentOutcome> {
    const source = experimentSource(experiment);
    const quick = options.quick ?? false;
    // One failed chunk stops the others.
    const stop = new AbortController();
    const onAbort = () => stop.abort(abortReason(options.signal!));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const { runs } = await this.planExperiment(source, { quick, signal: stop.signal });
      // About four chunks per worker: enough to even out runs of unequal length, few enough that
      // a chunk of tiny runs is not all messaging.
      const size = Math.max(1, Math.ceil(runs / (this.#maxWorkers * 4)));
      const done = new Array<number>(Math.ceil(runs / size)).fill(0);
      let lastReport = -Infinity;
      const report = (force: boolean) => {
        const now = Date.now();
        if (!force && now - lastReport < 50) return;
        lastReport = now;
        const total = done.reduce((a, b) => a + b, 0);
        options.onProgress?.({ done: total, runs, fraction: runs > 0 ? total / runs : 1 });
      };
      const chunks = done.map(async (_, c) => {
        const from = c * size;
        const to = Math.min(runs, from + size);
        try {
          const records = (await this.#submit(
            { type: 'experimentRuns', source, quick, from, to },
            { signal: stop.signal, onRuns: (n) => ((done[c] = n), report(false)) },
          )) as RunRecord[];
          done[c] = to - from;
          report(false);
          return records;
        } catch (e) {
          stop.abort(e);
          throw e;
        }
      });
      const settled = await Promise.allSettled(chunks);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw options.signal?.aborted ? abortReason(options.signal) : failed.reason;
      report(true);
      const records = settled.flatMap((s) => (s as PromiseFulfilledResult<RunRecord[]>).value);
      return await this.experimentReport(source, records, { quick, signal: stop.signal });
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  // For a caller that runs an experiment's runs itself (the service's queue runs each with the
  // native tcpsim): the plan, each run's scenario, each run's record from its summary, and the
  // report from the records in run order, all by sim-core's own code (Expand, RecordRun,
  // BuildReport), so that the report is `tcpsim reproduce`'s.

  /** The experiment validated and expanded: its run count, its document with defaults, its longest run. Rejects like runExperiment. */
  async planExperiment(experiment: string | Experiment, options: ExperimentStepOptions = {}): Promise<ExperimentPlan> {
    const source = experimentSource(experiment);
    return (await this.#submit({ type: 'experimentPlan', source, quick: options.quick ?? false }, { signal: options.signal })) as ExperimentPlan;
  }

  /** Run `index` of the plan as a scenario with its seed; `tcpsim run - --trace summary` gives the summary recordExperimentRun reads. */
  async experimentRunScenario(experiment: string | Experiment, index: number, options: ExperimentStepOptions = {}): Promise<Scenario> {
    const source = experimentSource(experiment);
    return (await this.#submit({ type: 'experimentScenario', source, quick: options.quick ?? false, index }, { signal: options.signal })) as Scenario;
  }

  /** What the report keeps of a run: its metric values and resultHash, read from its complete summary (trace level other than 'none'). */
  async recordExperimentRun(experiment: string | Experiment, summary: Result | string, options: ExperimentStepOptions = {}): Promise<RunRecord> {
    const source = experimentSource(experiment);
    const text = typeof summary === 'string' ? summary : JSON.stringify(summary);
    return (await this.#submit({ type: 'experimentRecord', source, quick: options.quick ?? false, summary: text }, { signal: options.signal })) as RunRecord;
  }

  /** The report of every run's record, in run order (as runExperiment gives it). */
  async experimentReport(experiment: string | Experiment, records: RunRecord[], options: ExperimentStepOptions = {}): Promise<ExperimentOutcome> {
    const source = experimentSource(experiment);
    const out = (await this.#submit({ type: 'experimentReport', source, quick: options.quick ?? false, records }, { signal: options.signal })) as {
      report: string;
      text: string;
    };
    return { report: JSON.parse(out.report), json: out.report, text: out.text };
  }

  /** Memory of the worker that answers (with maxWorkers 1: the only one). */
  async heapStats(): Promise<HeapStats> {
    return (await this.#submit({ type: 'heapStats' })) as HeapStats;
  }

  stats(): SimulatorStats {
    let busy = 0;
    for (const slot of this.#slots) if (slot.job) busy++;
    return { workers: this.#slots.size, busy, queued: this.#queue.length, exiting: this.#exiting };
  }

  /** Terminates every worker; pending requests reject. */
  close(): void {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#settle(job, () => job.reject(new Error('simulator closed')));
    for (const slot of [...this.#slots]) {
      const job = slot.job;
      this.#retire(slot);
      if (job) this.#settle(job, () => job.reject(new Error('simulator closed')));
    }
    if (this.#starting) this.#retire(this.#starting);
  }

  #submit(body: RequestBody, options: Pick<Job, 'signal' | 'onProgress' | 'onRuns'> = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#closed) throw new Error('simulator closed');
      const { signal, onProgress, onRuns } = options;
      if (signal?.aborted) throw abortReason(signal);
      const job: Job = { body, resolve, reject, onProgress, onRuns, signal };
      if (signal) {
        job.onAbort = () => this.#abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.#queue.push(job);
      this.#pump();
    });
  }

  // Hands queued jobs to idle workers, starting workers up to the maximum.
  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#idle.pop();
      if (!slot) {
        if (this.#slots.size + this.#exiting >= this.#maxWorkers) return;
        if (!this.#module) {
          this.#load();
          // The first worker starts now, so that its script loads while the module compiles; it
          // gets the module when it is ready.
          if (this.#slots.size === 0) this.#starting ??= this.#newSlot();
          return;
        }
        slot = this.#spawn(this.#module);
      }
      const job = this.#queue.shift()!;
      slot.job = job;
      slot.requestId = this.#nextId++;
      slot.port.setBusy(true);
      slot.port.post({ ...job.body, id: slot.requestId });
    }
  }

  #load(): void {
    this.#loading ??= this.#host.loadModule().then(
      (module) => {
        this.#module = module;
        this.#loading = undefined;
        if (!this.#closed) this.#pump();
      },
      (error: unknown) => {
        // Nothing can run: fail what waits, and try again on the next request.
        this.#loading = undefined;
        const failure = new SimulationError(
          `cannot load the simulation module: ${error instanceof Error ? error.message : String(error)}`,
        );
        for (const job of this.#queue.splice(0)) this.#settle(job, () => job.reject(failure));
      },
    );
  }

  // A worker, not yet given the module (nor counted among the slots).
  #newSlot(): Slot {
    const slot: Slot = { port: undefined as unknown as WorkerPort, retired: false };
    slot.port = this.#host.spawn(
      (reply) => this.#onReply(slot, reply),
      (error) => this.#onFailure(slot, error),
    );
    return slot;
  }

  // A worker with the module: the one started while the module compiled, if any, else a new one.
  #spawn(module: WebAssembly.Module): Slot {
    const slot = this.#starting ?? this.#newSlot();
    this.#starting = undefined;
    slot.port.post({ type: 'init', module });
    this.#slots.add(slot);
    return slot;
  }

  #onReply(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (slot.retired || !job || reply.id !== slot.requestId) return;
    if (reply.type === 'progress') {
      const { simulatedS, durationS } = reply;
      job.onProgress?.({ simulatedS, durationS, fraction: durationS > 0 ? Math.min(1, simulatedS / durationS) : 1 });
      return;
    }
    if (reply.type === 'runs') {
      job.onRuns?.(reply.done);
      return;
    }
    if (reply.type === 'done') {
      this.#release(slot);
      this.#settle(job, () => job.resolve(reply.value));
      return;
    }
    // Bad input leaves the engine as it was; anything else may have left it unusable, and an
    // out-of-memory worker keeps its grown memory: replace it.
    if (reply.error.kind === 'scenario') this.#release(slot);
    else this.#retire(slot);
    this.#settle(job, () => job.reject(errorFromWorker(reply.error)));
  }

  #onFailure(slot: Slot, error: Error): void {
    if (slot.retired) return;
    const job = slot.job;
    this.#retire(slot);
    if (job) this.#settle(job, () => job.reject(new SimulationError(`the simulation worker failed: ${error.message}`)));
  }

  #abort(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
    } else {
      const slot = [...this.#slots].find((s) => s.job === job);
      if (!slot) return;
      // The run is synchronous inside the worker: only terminating it stops the run and frees its memory.
      this.#retire(slot);
    }
    this.#settle(job, () => job.reject(abortReason(job.signal!)));
  }

  // The worker finished its request and waits for the next.
  #release(slot: Slot): void {
    slot.job = undefined;
    slot.port.setBusy(false);
    this.#idle.push(slot);
    this.#pump();
  }

  // The worker is terminated; a new one starts when a request needs it and the old one has exited,
  // so that no more than maxWorkers workers hold memory at once (a run being torn down may hold
  // gigabytes), and the new thread reuses what the old one freed.
  #retire(slot: Slot): void {
    slot.retired = true;
    if (this.#starting === slot) this.#starting = undefined;
    slot.job = undefined;
    this.#slots.delete(slot);
    const idle = this.#idle.indexOf(slot);
    if (idle >= 0) this.#idle.splice(idle, 1);
    this.#exiting++;
    void slot.port.terminate().then(() => {
      this.#exiting--;
      if (!this.#closed) this.#pump();
    });
  }

  #settle(job: Job, settle: () => void): void {
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    settle();
  }
}
