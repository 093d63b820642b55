// A run's plot columns (data/derived.ts), derived in slices: what fits in the first slice is
// derived while rendering (a small run's plots appear with its summary); the rest in tasks of about
// 30 ms after the summary is on screen. Null until they are ready. Once shown they are kept with
// the run, whose trace and series are released (data/derived.ts).
import type { SimulationResult } from '@tcb-lab/sim';
import { useEffect, useMemo, useState } from 'react';
import { derivedSlices, keepDerived, keptDerived, type Derived } from '../../data/derived';
import { runFor, runSliced, SlicesAborted } from '../../data/slices';

const SLICE_MS = 30;

export function useDerived(result: SimulationResult): Derived | null {
  const started = useMemo(() => {
    const d = keptDerived(result);
    if (d) return { work: null, first: { done: true, value: d } as const };
    const work = derivedSlices(result);
    return { work, first: runFor(work, SLICE_MS) };
  }, [result]);
  const [done, setDone] = useState<{
    result: SimulationResult;
    d?: Derived;
    error?: unknown;
  } | null>(null);
  useEffect(() => {
    if (started.first.done || !started.work) return;
    const abort = new AbortController();
    runSliced(started.work, { budgetMs: SLICE_MS, signal: abort.signal }).then(
      (d) => setDone({ result, d }),
      (error: unknown) => {
        if (!(error instanceof SlicesAborted)) setDone({ result, error });
      },
    );
    return () => abort.abort();
  }, [started, result]);
  const d = started.first.done ? started.first.value : done?.result === result ? done.d : undefined;
  // Kept once on screen; the run's trace and series are released then (data/derived.ts).
  useEffect(() => {
    if (d) keepDerived(result, d);
  }, [result, d]);
  if (!started.first.done && done?.result === result && done.error !== undefined) throw done.error;
  return d ?? null;
}

export type { Derived };
