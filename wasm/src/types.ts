// The public types of the simulation API. Scenario and Result come from sim-core's JSON Schemas
// and the series and trace columns from sim-core's column table (src/generated, built by
// scripts/generate-types.mjs).
import type { Scenario } from './generated/scenario.js';
import type { Result } from './generated/result.js';
import type { GroupSeriesColumns, PacketTraceColumns, QueueSeriesColumns, TcpSeriesColumns } from './generated/columns.js';

export type { Scenario } from './generated/scenario.js';
export type { Result } from './generated/result.js';
export type { Experiment } from './generated/experiment.js';
export type { ExperimentReport } from './generated/report.js';

/** The documents sim-core has a JSON Schema for. */
export type SchemaName = 'scenario' | 'result' | 'experiment' | 'report';

export type TraceLevel = NonNullable<NonNullable<Scenario['record']>['trace']>;

export interface Progress {
  /** Simulated time reached, in seconds. */
  simulatedS: number;
  /** The scenario's durationS. */
  durationS: number;
  /** simulatedS / durationS, in [0, 1]. */
  fraction: number;
}

export interface RunOptions {
  /** Called at least every 100 ms of wall time while the run proceeds, and once at the end. */
  onProgress?: (progress: Progress) => void;
  /** Aborting terminates the worker running the scenario; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the scenario's record.trace: 'series' adds `series`, 'full' also `trace`. */
  trace?: TraceLevel;
  /** Overrides the scenario's seed (like `tcpsim run --seed`). */
  seed?: number;
  /**
   * The most bytes the series and packet trace may take as typed arrays (default 2 GiB, about
   * 35 million trace rows); a run that records more rejects with OutOfMemoryError.
   */
  maxRecordedBytes?: number;
}

export type {
  TcpSeriesColumns,
  QueueSeriesColumns,
  GroupSeriesColumns,
  PacketTraceColumns,
} from './generated/columns.js';

/** Time series, one row per change (trace level 'series' or 'full'); like `tcpsim run -o`'s series.json. */
export interface Series {
  tcp: TcpSeriesColumns;
  queue: QueueSeriesColumns;
  group: GroupSeriesColumns;
}

/** One row per packet event (trace level 'full'); like `tcpsim run -o`'s trace.csv. */
export interface PacketTrace extends PacketTraceColumns {
  /** Names of the codes in `event`, e.g. eventNames[trace.event[i]] === 'drop'. */
  eventNames: string[];
}

export interface SimulationResult {
  /** The summary exactly as `tcpsim run` prints it at the same trace level (with resultHash). */
  summary: Result;
  /**
   * Flow names, indexed by the flow columns. Empty when the scenario's record.flowRecords is false and
   * nothing refers to flows by index (trace level below 'series').
   */
  flows: string[];
  /** Link direction names ("<link>:<from>><to>"), indexed by the link columns. */
  links: string[];
  /** Sharing group names, indexed by the group columns. */
  groups: string[];
  series?: Series;
  trace?: PacketTrace;
  /** Wall time of the simulation itself, measured like `tcpsim run --stats` (without parsing or copying out). */
  wallSeconds: number;
}

export type Validation =
  | {
      valid: true;
      /** The scenario with every default filled in, as `tcpsim validate` prints it. */ scenario: Scenario;
    }
  | { valid: false; error: { path: string; problem: string; message: string } };

/** A sweep over a scenario: `grid` maps JSON Pointers (RFC 6901) to the values each takes. */
export interface GridRequest {
  scenario: Scenario | Record<string, unknown>;
  /** In order: the first pointer varies slowest. */
  grid?: Record<string, unknown[]>;
  /** Runs per point, with seeds seed, seed + 1, ... (default 1). */
  replications?: number;
}

/** A sweep's plan, as `tcpsim grid` prints it (sim-core/experiment/grid.h). */
export interface GridPlan {
  /** The base scenario with every default filled in. */
  normalised: Scenario;
  pointers: string[];
  /** Per pointer, per value: the simulated duration with only that value set. */
  valueDurationS: number[][];
  points: GridPoint[];
}

export interface GridPoint {
  /** The point's value per pointer, in grid order. */
  params: Record<string, unknown>;
  /** The base scenario as given, with the point's values set. */
  scenario: Record<string, unknown>;
  /** The point's seed; replication r runs with seed + r. */
  seed: number;
  durationS: number;
}

/** What a sample of values says about its mean: sim-core's Summarize and Student-t half-width. */
export interface SampleStatistics {
  n: number;
  /** null without values. */
  mean: number | null;
  /** The sample standard deviation (divisor n - 1); null below two values. */
  sd: number | null;
  /** Half-width of the confidence interval of the mean at the level asked; null below two values. */
  halfWidth: number | null;
}

/** An entry of the paper catalogue (sim-core/scenario/papers.json), as `tcpsim papers` prints it. */
export interface Paper {
  id: string;
  /** How the product names it in one word or two, e.g. "E-TCP", "RFC 9040". */
  short: string;
  authors: string;
  title: string;
  venue?: string;
  year?: number;
  url?: string;
  /** What it showed, in one line. */
  finding?: string;
}

export interface HeapStats {
  /** The worker's linear memory; it only grows, up to the build's maximum. */
  memoryBytes: number;
  /** Bytes allocated by malloc and not yet freed. */
  allocatedBytes: number;
}

export interface ExperimentProgress {
  /** Runs finished. */
  done: number;
  /** Runs in the plan. */
  runs: number;
  /** done / runs, in [0, 1]. */
  fraction: number;
}

export interface ExperimentOptions {
  /** The reduced size (`tcpsim reproduce --quick`): quick.replications and quick.axes. */
  quick?: boolean;
  /** Called as runs finish (at least every 100 ms while they do), and once at the end. */
  onProgress?: (progress: ExperimentProgress) => void;
  /** Aborting terminates the workers running the experiment's runs; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of the steps of an experiment run by the caller (Simulator.planExperiment and the methods beside it). */
export interface ExperimentStepOptions {
  /** The reduced size (`tcpsim reproduce --quick`). */
  quick?: boolean;
  signal?: AbortSignal;
}

/** An experiment validated and expanded (sim-core's Expand). */
export interface ExperimentPlan {
  /** Runs in the plan: variants x points x replications. */
  runs: number;
  /** The document as validated, with the schema's defaults filled in. */
  experiment: import('./generated/experiment.js').Experiment;
  /** The longest simulated duration among the runs, in seconds. */
  maxDurationS: number;
  /**
   * Replications of each variant and point in this mode: the runs go variant by variant, point by
   * point, so runs i·replications to (i+1)·replications − 1 are one point's.
   */
  replications: number;
}

export interface ExperimentOutcome {
  /** The report, as `tcpsim reproduce <name> --json` prints it (report.schema.json). */
  report: import('./generated/report.js').ExperimentReport;
  /** The report's JSON text exactly as the CLI prints it (two-space indent, a final newline). */
  json: string;
  /** The tables and verdicts as `tcpsim reproduce` prints them without --json. */
  text: string;
}
