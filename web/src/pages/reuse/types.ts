// What the reuse view's parts pass each other: the question asked, its outcome, and a sweep running.
import type { Batch } from '../../api';
import type { Cell, PathRoles, ReuseAxes, ReuseSpec, Summarize } from '../../data/reuse';
import { statsOf } from '../../data/reuse';
import { summarizeSamples } from '../../sim';

/** The question as asked: the spec, the path's roles and the grid's pointers. */
export interface Question {
  spec: ReuseSpec;
  roles: PathRoles;
  axes: ReuseAxes;
}

export interface Outcome {
  /** Which result this is, in this page's life (a new one starts the charts' choices afresh). */
  id: number;
  question: Question;
  cells: Cell[];
  source: { kind: 'browser'; elapsedMs: number } | { kind: 'server'; batch: string };
}

export type Running = { kind: 'browser'; done: number; total: number } | { kind: 'server'; batch: string } | { kind: 'planning' };

export const finishedBatch = (s: Batch['status']) => s === 'completed' || s === 'cancelled' || s === 'failed';

/** sim-core's statistics of the replications (the WASM build's summarizeSamples), as the cells keep them. */
export const summarize: Summarize = async (samples) => (await summarizeSamples(samples)).map(statsOf);
