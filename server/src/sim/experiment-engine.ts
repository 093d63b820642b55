// An experiment's plan, its runs' scenarios and records, and its report, by sim-core's own code
// (Expand, RunSpec::ScenarioDocument, RecordRun, BuildReport) through the WebAssembly build's
// ExperimentSession: the service runs each run with the native tcpsim and never re-implements
// the plan or the report, so a reproduction's report is `tcpsim reproduce --json`'s.
import type * as Sim from '@tcb-lab/sim';
import type { Experiment, ExperimentOutcome, ExperimentPlan, RunRecord } from '@tcb-lab/sim';
import type { ReproductionMode } from '../schemas/reproductions.js';
import { wasmPackagePath } from './engine.js';

export type { ExperimentPlan, RunRecord };

export type Planning = { ok: true; plan: ExperimentPlan } | { ok: false; path: string; problem: string };

type SimSimulator = ReturnType<typeof Sim.createSimulator>;

export class ExperimentEngineMissing extends Error {
  override name = 'ExperimentEngineMissing';
  constructor() {
    super('reproductions need the WebAssembly build of the simulator (scripts/build-wasm), which is missing');
  }
}

export class ExperimentEngine {
  readonly #simulator: SimSimulator;
  readonly #ScenarioError: typeof Sim.ScenarioError;

  private constructor(pkg: typeof Sim) {
    // One worker: every call but planning a large experiment is a few milliseconds.
    this.#simulator = pkg.createSimulator({ maxWorkers: 1 });
    this.#ScenarioError = pkg.ScenarioError;
  }

  /** Rejects with ExperimentEngineMissing when the WASM package is not built. */
  static async create(): Promise<ExperimentEngine> {
    if (!wasmPackagePath()) throw new ExperimentEngineMissing();
    return new ExperimentEngine(await import('@tcb-lab/sim'));
  }

  /** A built-in experiment's document, or null for an unknown name. */
  async builtIn(name: string): Promise<Experiment | null> {
    try {
      return await this.#simulator.getExperiment(name);
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }

  /** Validates and expands; a bad document is the CLI's path (in the document) and words. */
  async plan(source: string, mode: ReproductionMode): Promise<Planning> {
    try {
      return { ok: true, plan: await this.#simulator.planExperiment(source, { quick: mode === 'quick' }) };
    } catch (error) {
      if (error instanceof this.#ScenarioError) return { ok: false, path: error.path, problem: error.problem };
      throw error;
    }
  }

  /** Run `index`'s scenario, seed included, as JSON text for `tcpsim run -`. */
  async runScenario(source: string, mode: ReproductionMode, index: number): Promise<string> {
    return JSON.stringify(await this.#simulator.experimentRunScenario(source, index, { quick: mode === 'quick' }));
  }

  /** The run's record from its complete summary (trace level 'summary'), parsed or as JSON text. */
  record(source: string, mode: ReproductionMode, summary: Record<string, unknown> | string): Promise<RunRecord> {
    return this.#simulator.recordExperimentRun(source, summary as never, { quick: mode === 'quick' });
  }

  report(source: string, mode: ReproductionMode, records: RunRecord[]): Promise<ExperimentOutcome> {
    return this.#simulator.experimentReport(source, records, { quick: mode === 'quick' });
  }

  close(): void {
    this.#simulator.close();
  }
}
