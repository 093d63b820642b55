// Messages between the Simulator (main thread) and its workers.
import type { SchemaName, TraceLevel } from './types.js';

export type InitMessage = { type: 'init'; module: WebAssembly.Module };

export type RequestBody =
  | { type: 'run'; text: string; trace?: TraceLevel; seed?: number; maxRecordedBytes: number }
  | { type: 'validate'; text: string }
  | { type: 'planGrid'; text: string }
  | { type: 'summarizeSamples'; text: string }
  | { type: 'presets' }
  | { type: 'preset'; name: string }
  | { type: 'papers' }
  | { type: 'schema'; which: SchemaName }
  | { type: 'heapStats' }
  | { type: 'experiments' }
  | { type: 'experiment'; name: string }
  // An experiment (a built-in name or a document's JSON text) in one mode: its run count, its runs
  // [from, to) by index, one run's scenario (to run elsewhere), the record of a run's summary, and
  // the report of every run's record in run order.
  | { type: 'experimentPlan'; source: string; quick: boolean }
  | { type: 'experimentRuns'; source: string; quick: boolean; from: number; to: number }
  | { type: 'experimentScenario'; source: string; quick: boolean; index: number }
  | { type: 'experimentRecord'; source: string; quick: boolean; summary: string }
  | { type: 'experimentReport'; source: string; quick: boolean; records: RunRecord[] };

/** What an experiment keeps of one run (sim-core's RunRecord): each metric's value and the resultHash. */
export interface RunRecord {
  metrics: (number | null)[];
  resultHash: string;
}

export type Request = RequestBody & { id: number };

export type WorkerMessage = InitMessage | Request;

/** 'crash': a JavaScript error or trap in the worker (the module may be unusable afterwards). */
export interface WorkerError {
  kind: 'scenario' | 'memory' | 'internal' | 'crash';
  message: string;
  path?: string;
  problem?: string;
}

export type Reply =
  | { id: number; type: 'progress'; simulatedS: number; durationS: number }
  /** An experimentRuns request has finished `done` of its runs. */
  | { id: number; type: 'runs'; done: number }
  | { id: number; type: 'done'; value: unknown }
  | { id: number; type: 'error'; error: WorkerError };
