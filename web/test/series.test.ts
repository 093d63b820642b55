import { describe, expect, it } from 'vitest';
import { closedWindows, flowWindows, groupWindows, isClosedRow, niceBin, pacedWindows, queueLines, rates, rttSamples, stackSteps } from '../src/data/series';
import { timeSequence } from '../src/data/timeseq';
import { fakeResult } from './fixtures';

describe('flowWindows', () => {
  it('splits the interleaved TCP series per flow, in seconds, with infinite ssthresh as NaN', () => {
    const w = flowWindows(fakeResult());
    expect(w.map((f) => f.name)).toEqual(['a', 'b']);
    expect(Array.from(w[0].t)).toEqual([0, 0.01, 0.02]);
    expect(Array.from(w[0].cwnd)).toEqual([100, 200, 300]);
    expect(Array.from(w[0].ssthresh)).toEqual([NaN, NaN, 150]);
    expect(Array.from(w[0].srttS)).toEqual([NaN, 0.01, 0.012]);
  });

  it('keeps the pacing rate per flow, and the pacing plot only the flows ever paced while open', () => {
    const w = flowWindows(fakeResult());
    expect(Array.from(w[1].pacingBps)).toEqual([0, 8e5]);
    const r = fakeResult();
    expect(pacedWindows(closedWindows(w, r)).map((f) => f.name)).toEqual(['b']);
    const endAt = (endS: number) => ({ ...r, summary: { ...r.summary, flows: [{ ...r.summary.flows![1], id: 1, endS }] } }) as typeof r;
    // Paced only after it closed: not shown.
    expect(pacedWindows(closedWindows(w, endAt(0.02)))).toEqual([]);
  });

  it('ends each flow’s lines where the flow ended', () => {
    const r = fakeResult(); // flow a ends at 0.032, after its last row; b has not ended.
    const [a, b] = closedWindows(flowWindows(r), r);
    expect(Array.from(a.t)).toEqual([0, 0.01, 0.02, 0.032]);
    expect(Array.from(a.cwnd)).toEqual([100, 200, 300, NaN]);
    expect(Array.from(a.pacingBps)).toEqual([0, 0, 0, NaN]);
    expect(isClosedRow(a, 3)).toBe(true);
    expect(isClosedRow(a, 2)).toBe(false);
    expect(Array.from(b.t)).toEqual([0.012, 0.031]);
    // Rows at or after the end are dropped.
    const early = { ...r, summary: { ...r.summary, flows: [{ ...r.summary.flows![0], endS: 0.01 }] } } as typeof r;
    const [a2] = closedWindows(flowWindows(r), early);
    expect(Array.from(a2.t)).toEqual([0, 0.01]);
    expect(Array.from(a2.cwnd)).toEqual([100, NaN]);
  });

  it('reads results stored before the pacing column as never paced', () => {
    const r = fakeResult();
    const tcp: Partial<NonNullable<typeof r.series>['tcp']> = r.series!.tcp;
    delete tcp.pacingBps;
    const w = flowWindows(r);
    expect(Array.from(w[0].pacingBps)).toEqual([0, 0, 0]);
    expect(pacedWindows(closedWindows(w, r))).toEqual([]);
  });
});

describe('stackSteps', () => {
  it('stacks step series on the union of their times, zero before each starts', () => {
    const s = stackSteps([Float64Array.from([0, 2]), Float64Array.from([1])], [Float64Array.from([10, 20]), Float64Array.from([5])]);
    expect(Array.from(s.t)).toEqual([0, 1, 2]);
    expect(Array.from(s.y0[0])).toEqual([0, 0, 0]);
    expect(Array.from(s.y1[0])).toEqual([10, 10, 20]);
    expect(Array.from(s.y0[1])).toEqual([10, 10, 20]);
    expect(Array.from(s.y1[1])).toEqual([10, 15, 25]);
  });
});

describe('groupWindows', () => {
  it('gives the aggregate window and stacks members’ bytes in flight for a one-window scheme', () => {
    const [g] = groupWindows(fakeResult());
    expect(g.scheme).toBe('etcp');
    expect(g.share).toBe('in flight');
    expect(Array.from(g.cwnd)).toEqual([400, 600]);
    expect(Array.from(g.ssthresh)).toEqual([NaN, 300]);
    expect(g.memberFlows).toEqual([0, 1]);
    expect(Array.from(g.stackT)).toEqual([0, 0.01, 0.012, 0.02, 0.031]);
    expect(Array.from(g.y1[1])).toEqual([0, 200, 250, 150, 100]);
  });
});

describe('queueLines', () => {
  it('keeps links that queued or dropped, with drop times from the trace', () => {
    const q = queueLines(fakeResult());
    expect(q.map((l) => l.name)).toEqual(['path:server>client']);
    expect(Array.from(q[0].packets)).toEqual([1, 2, 0]);
    expect(Array.from(q[0].dropT)).toEqual([0.011]);
  });
});

describe('rates', () => {
  it('bins bytes sent (throughput) and bytes newly acknowledged (goodput), in b/s', () => {
    const ts = timeSequence(fakeResult())!;
    const [a] = rates(ts, 0.01);
    // Sent: 200 B in [0.01, 0.02), 100 B (the retransmission) in [0.02, 0.03).
    expect(Array.from(a.throughputBps)).toEqual([0, 160_000, 80_000, 0]);
    // Acknowledged: 1 → 101 at 0.020, 101 → 201 at 0.031.
    expect(Array.from(a.goodputBps)).toEqual([0, 0, 80_000, 80_000]);
  });

  it('chooses 1-2-5 bin widths', () => {
    expect(niceBin(30, 100)).toBe(0.5);
    expect(niceBin(1, 100)).toBe(0.01);
  });
});

describe('rttSamples', () => {
  it('takes samples from ACKs of segments sent once and none for retransmitted ones (Karn)', () => {
    const ts = timeSequence(fakeResult())!;
    const [a, b] = rttSamples(ts);
    expect(Array.from(a.rttS).map((v) => +v.toFixed(6))).toEqual([0.01]);
    expect(Array.from(b.rttS).map((v) => +v.toFixed(6))).toEqual([0.01]);
  });
});

describe('every TCP series column per flow', () => {
  it('keeps each column by its key, cut where the flow closed, and lists those without a plot of their own', async () => {
    const { fakeResult } = await import('./fixtures');
    const { bbrWindows, closedWindows, flowWindows, otherSeriesColumns, windowColumn } = await import('../src/data/series');
    const result = fakeResult();
    const windows = flowWindows(result);
    for (const w of windows) {
      expect(Array.from(w.columns.cwndBytes)).toEqual(Array.from(w.cwnd));
      expect(w.columns.rttvarNs.length).toBe(w.t.length);
      expect('timeNs' in w.columns || 'flow' in w.columns).toBe(false);
    }
    // A column without a plot of its own is listed as recorded; CUBIC's have one (W_max and K on
    // the cwnd plot).
    expect(otherSeriesColumns(windows)).toEqual(['rttvarNs']);
    const cubic = fakeResult();
    cubic.series!.tcp.wMaxBytes[1] = 5000;
    cubic.series!.tcp.cubicKNs[1] = 2e9;
    expect(otherSeriesColumns(flowWindows(cubic))).toEqual(['rttvarNs']);
    // BBR's bandwidth and min RTT have their own plots (windowViews 'bbr-bw', 'bbr-rtt'), and so
    // have its state and gain ('bbr-state').
    const bbr = fakeResult();
    bbr.series!.tcp.btlBwBps.set([0, 9e6, 0, 9.5e6, 0]);
    bbr.series!.tcp.bbrMinRttNs.set([0, 40e6, 0, 40e6, 0]);
    bbr.series!.tcp.bbrState.set([1, 1, 0, 3, 0]);
    const bbrFlows = bbrWindows(flowWindows(bbr));
    expect(bbrFlows.map((w) => w.name)).toEqual(['a']);
    // 0 is no estimate yet (columns.json's display: zero none).
    expect(Array.from(windowColumn('btlBwBps').values(bbrFlows[0]))).toEqual([NaN, 9e6, 9.5e6]);
    expect(Array.from(windowColumn('bbrMinRttNs').values(bbrFlows[0]))).toEqual([NaN, 0.04, 0.04]);
    expect(otherSeriesColumns(flowWindows(bbr))).toEqual(['rttvarNs']);
    expect(bbrWindows(windows)).toEqual([]);
    const column = windowColumn('rttvarNs');
    expect(Array.from(column.values(windows[0]))).toEqual(Array.from(windows[0].columns.rttvarNs));
    const closed = closedWindows(windows, result);
    for (const w of closed) expect(w.columns.rttvarNs.length).toBe(w.t.length);
  });
});
