// A run's plot columns derived in slices (data/derived.ts, data/slices.ts): the page derives a large
// run's columns in tasks, giving the event loop back between them; what it gets must be what the
// one-shot derivation gives, however the slices are spread over tasks.
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator, type SimulationResult } from '@tcb-lab/sim';
import { derived, derivedSlices, keepDerived, keptDerived } from '../src/data/derived';
import { runFor, runSliced, SlicesAborted, type Slices } from '../src/data/slices';
import { fakeResult } from './fixtures';

const sim = createSimulator({ maxWorkers: 1 });
afterAll(() => sim.close());

/** How many times the work yields before it is done. */
function slicesOf<T>(work: Slices<T>): number {
  let n = 0;
  while (!work.next().done) n++;
  return n;
}

describe('the plot columns in slices', () => {
  it('equal the one-shot derivation, with a task per slice, for a hand-made run', async () => {
    const one = derived(fakeResult());
    const sliced = await runSliced(derivedSlices(fakeResult()), { budgetMs: 0 });
    expect(sliced).toEqual(one);
    expect(sliced.windows.map((w) => w.flow)).toEqual([0, 1]);
    expect(sliced.queues.map((q) => q.link)).toEqual([0]);
  });

  it('equal the one-shot derivation for a preset run, also interleaved with another and resumed after an abort', async () => {
    const result: SimulationResult = await sim.runScenario(await sim.getPreset('etcp-fig4-fair'), { trace: 'full' });
    const one = derived(result);
    expect(one.ts!.connections.length).toBe(3);
    // Every data segment the flows sent is a segment of the graph (the summary counts them apart).
    expect(one.ts!.segments.t.length).toBe(result.summary.flows!.reduce((n, f) => n + (f.dataSegmentsSent ?? 0), 0));
    // It yields at least once per trace block, scanned column and flow.
    expect(slicesOf(derivedSlices(result))).toBeGreaterThan(one.windows.length + 3);

    // Two derivations of the same run whose tasks interleave.
    const [a, b] = await Promise.all([runSliced(derivedSlices(result), { budgetMs: 0 }), runSliced(derivedSlices(result), { budgetMs: 0 })]);
    expect(a).toEqual(one);
    expect(b).toEqual(one);
    // The columns plotted as recorded stay the same arrays as the flow's columns.
    for (const w of a.windows) expect(w.columns.cwndBytes).toBe(w.cwnd);

    // Begun while rendering, abandoned (React's StrictMode mounts an effect twice), then resumed.
    const work = derivedSlices(result);
    expect(runFor(work, 0).done).toBe(false);
    const abort = new AbortController();
    const first = runSliced(work, { budgetMs: 0, signal: abort.signal });
    abort.abort();
    await expect(first).rejects.toBeInstanceOf(SlicesAborted);
    expect(await runSliced(work, { budgetMs: 0 })).toEqual(one);
  });

  it('kept with a shown run, they outlive the trace and series of the run, which are released', async () => {
    const result: SimulationResult = await sim.runScenario(await sim.getPreset('etcp-fig4-fair'), { trace: 'full' });
    const d = derived(result);
    const copy = derived(await sim.runScenario(await sim.getPreset('etcp-fig4-fair'), { trace: 'full' }));
    keepDerived(result, d);
    expect(keptDerived(result)).toBe(d);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(result.trace!.timeNs.length).toBe(0);
    expect(result.series!.tcp!.cwndBytes.length).toBe(0);
    // No plot column is a view of a released column.
    expect(d).toEqual(copy);
    expect(d.windows.length).toBe(3);
  });
});
