// A run's plot columns, computed once per result: the time–sequence graph, the windows (ended where
// each flow ended), the paced and BBR flows, the groups, the queues, the run's end and a bin width.
// In slices (data/slices.ts), so that a large run's derivation does not block the page in one task.
import type { SimulationResult } from '@tcb-lab/sim';
import { derivedFrom, releaseColumns } from './release';
import { bbrWindows, closedWindowsSlices, flowWindowsSlices, groupWindows, niceBin, pacedWindows, queueLinesSlices } from './series';
import { runAll } from './slices';
import { timeSequenceSlices } from './timeseq';

export function* derivedSlices(result: SimulationResult) {
  const ts = yield* timeSequenceSlices(result);
  const flows = yield* flowWindowsSlices(result);
  const groups = groupWindows(result, flows);
  yield;
  const windows = yield* closedWindowsSlices(flows, result);
  const queues = yield* queueLinesSlices(result);
  const tEnd = Math.max(result.summary.simulatedTimeS, ts?.tMax ?? 0, 1e-6);
  const binS = niceBin(tEnd, 100);
  // Released with the run when a re-run replaces it (data/release.ts).
  return derivedFrom(result, {
    ts,
    windows,
    paced: pacedWindows(windows),
    bbr: bbrWindows(windows),
    groups,
    queues,
    tEnd,
    binS,
  });
}

export type Derived = ReturnType<typeof derivedSlices> extends Generator<unknown, infer T, unknown> ? T : never;

/** The run's plot columns in one go. */
export const derived = (result: SimulationResult): Derived => runAll(derivedSlices(result));

const kept = new WeakMap<SimulationResult, Derived>();

/** The plot columns kept for a run shown (keepDerived), if any. */
export const keptDerived = (result: SimulationResult): Derived | undefined => kept.get(result);

/**
 * Keeps a shown run's plot columns for as long as the run is reachable (a view of it mounted again
 * takes them, not a new derivation) and releases the run's packet trace and series: the page reads
 * them only to derive the plot columns (the trace about 135 MiB, the series about 100 MiB for
 * dumbbell-bulk's 60 s), and the derived columns are copies, not views of them. The release comes in
 * a task after this one.
 */
export function keepDerived(result: SimulationResult, d: Derived) {
  if (kept.get(result) === d) return;
  kept.set(result, d);
  // In a task of its own: freeing a large run's buffers takes tens of milliseconds.
  setTimeout(() => {
    releaseColumns(result.trace);
    releaseColumns(result.series);
  }, 0);
}
