// Messages between the Simulator (main thread) and its workers.
import type { TraceLevel } from './types.js';

export type InitMessage = { type: 'init'; module: WebAssembly.Module };

export type RequestBody =
  | { type: 'run'; text: string; trace?: TraceLevel; seed?: number }
  | { type: 'validate'; text: string }
  | { type: 'presets' }
  | { type: 'preset'; name: string }
  | { type: 'papers' }
  | { type: 'schema'; which: 'scenario' | 'result' }
  | { type: 'heapStats' };

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
  | { id: number; type: 'done'; value: unknown }
  | { id: number; type: 'error'; error: WorkerError };
