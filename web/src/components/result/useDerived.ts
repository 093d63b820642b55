// A run's plot columns (data/derived.ts), derived in slices: what fits in the first slice is
// derived while rendering (a small run's plots appear with its summary); the rest in tasks of about
// 30 ms after the summary is on screen. Null until they are ready.
import type { SimulationResult } from '@tcb-lab/sim';
import { useEffect, useMemo, useState } from 'react';
import { derivedSlices, type Derived } from '../../data/derived';
import { runFor, runSliced, SlicesAborted } from '../../data/slices';

const SLICE_MS = 30;

export function useDerived(result: SimulationResult): Derived | null {
  const started = useMemo(() => {
    const work = derivedSlices(result);
    return { work, first: runFor(work, SLICE_MS) };
  }, [result]);
  const [done, setDone] = useState<{
    result: SimulationResult;
    d?: Derived;
    error?: unknown;
  } | null>(null);
  useEffect(() => {
    if (started.first.done) return;
    const abort = new AbortController();
    runSliced(started.work, { budgetMs: SLICE_MS, signal: abort.signal }).then(
      (d) => setDone({ result, d }),
      (error: unknown) => {
        if (!(error instanceof SlicesAborted)) setDone({ result, error });
      },
    );
    return () => abort.abort();
  }, [started, result]);
  if (started.first.done) return started.first.value;
  if (done?.result !== result) return null;
  if (done.error !== undefined) throw done.error;
  return done.d!;
}

export type { Derived };
