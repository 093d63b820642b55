// A run's plot columns, computed once per result: the time–sequence graph, the windows (ended where
// each flow ended), the paced and BBR flows, the groups, the queues, the run's end and a bin width.
import type { SimulationResult } from '@tcb-lab/sim';
import { useMemo } from 'react';
import { derivedFrom } from '../../data/release';
import { bbrWindows, closedWindows, flowWindows, groupWindows, niceBin, pacedWindows, queueLines } from '../../data/series';
import { timeSequence } from '../../data/timeseq';

export function useDerived(result: SimulationResult) {
  return useMemo(() => {
    const ts = timeSequence(result);
    const flows = flowWindows(result);
    const groups = groupWindows(result, flows);
    const windows = closedWindows(flows, result);
    const queues = queueLines(result);
    const tEnd = Math.max(result.summary.simulatedTimeS, ts?.tMax ?? 0, 1e-6);
    const binS = niceBin(tEnd, 100);
    // Released with the run when a re-run replaces it (data/release.ts).
    return derivedFrom(result, { ts, windows, paced: pacedWindows(windows), bbr: bbrWindows(windows), groups, queues, tEnd, binS });
  }, [result]);
}

export type Derived = ReturnType<typeof useDerived>;
