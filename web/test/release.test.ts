// releaseRun (src/data/release.ts): a superseded run's columns, and the plot columns registered as
// derived from it, are emptied; nothing else is.
import { describe, expect, it } from 'vitest';
import { derivedFrom, releaseRun } from '../src/data/release';
import { flowWindows } from '../src/data/series';
import { timeSequence } from '../src/data/timeseq';
import { fakeResult } from './fixtures';

describe('releaseRun', () => {
  it('empties the run’s typed arrays and those derived from it, and leaves another run alone', () => {
    const old = fakeResult();
    const current = fakeResult();
    const derived = derivedFrom(old, { ts: timeSequence(old)!, windows: flowWindows(old) });
    const kept = derivedFrom(current, { ts: timeSequence(current)! });
    expect(old.trace!.timeNs.length).toBeGreaterThan(0);
    expect(derived.ts.segments.t.length).toBeGreaterThan(0);
    releaseRun(old);
    expect(old.trace!.timeNs.length).toBe(0);
    expect(old.series!.tcp.cwndBytes.length).toBe(0);
    expect(derived.ts.segments.t.length).toBe(0);
    expect(derived.ts.acks[0].t.length).toBe(0);
    expect(derived.windows[0].cwnd.length).toBe(0);
    // What a run's objects say besides their columns stays readable.
    expect(old.summary.flows?.length).toBe(3);
    expect(current.trace!.timeNs.length).toBe(fakeResult().trace!.timeNs.length);
    expect(kept.ts.segments.t.length).toBe(timeSequence(fakeResult())!.segments.t.length);
    // Releasing twice is harmless.
    releaseRun(old);
  });
});
