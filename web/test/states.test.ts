// The state columns as bands (BBR's mode, Careful Resume's phase) and CUBIC's K, from the TCP
// series: stateRuns, stateInfo, cubicKMarks and the W_max and pacing-gain columns.
import { describe, expect, it } from 'vitest';
import { closedWindows, cubicKMarks, flowWindows, stateInfo, stateRuns, windowColumn, windowViews } from '../src/data/series';
import { fakeResult } from './fixtures';

// Flow a has rows at 0, 10 and 20 ms (it ends at 32 ms); flow b at 12 and 31 ms (open to the end).
function withColumn(key: 'bbrState' | 'crPhase' | 'bbrPacingGainMilli' | 'wMaxBytes' | 'cubicKNs' | 'cubicEpochNs', values: number[]) {
  const r = fakeResult();
  (r.series!.tcp[key] as { set(v: number[]): void }).set(values);
  return r;
}

describe('stateInfo', () => {
  it('names BBR’s states as tcp_bbr.c does, in the order of the column’s labels', () => {
    const bbr = stateInfo('bbrState');
    expect(bbr.names).toEqual(['none', 'Startup', 'Drain', 'ProbeBW', 'ProbeRTT']);
    expect(bbr.colors[0]).toBe('');
    expect(new Set(bbr.colors.slice(1)).size).toBe(4);
  });

  it('names Careful Resume’s phases as RFC 9959 §4 does', () => {
    expect(stateInfo('crPhase').names).toEqual(['Normal', 'Reconnaissance', 'Unvalidated', 'Validating', 'Safe Retreat']);
  });
});

describe('stateRuns', () => {
  it('turns a state column into runs per connection, leaving value 0 out', () => {
    // a: Startup from 0, Drain from 10 ms, ProbeBW from 20 ms; b: none, then ProbeRTT from 31 ms.
    const r = withColumn('bbrState', [1, 2, 0, 3, 4]);
    const runs = stateRuns(flowWindows(r), 'bbrState', 0.05);
    expect(runs.map((x) => x.flow)).toEqual([0, 1]);
    expect(Array.from(runs[0].start)).toEqual([0, 0.01, 0.02]);
    expect(Array.from(runs[0].end)).toEqual([0.01, 0.02, 0.05]);
    expect(Array.from(runs[0].state)).toEqual([1, 2, 3]);
    expect(Array.from(runs[1].start)).toEqual([0.031]);
    expect(Array.from(runs[1].state)).toEqual([4]);
  });

  it('ends the last run where the connection closed', () => {
    const r = withColumn('crPhase', [1, 1, 0, 2, 0]);
    const runs = stateRuns(closedWindows(flowWindows(r), r), 'crPhase', 0.05);
    expect(runs.map((x) => x.flow)).toEqual([0]);
    // Reconnaissance from 0 (the equal row at 10 ms continues it), Unvalidated from 20 ms to the close.
    expect(Array.from(runs[0].start)).toEqual([0, 0.02]);
    expect(Array.from(runs[0].end)).toEqual([0.02, 0.032]);
    expect(Array.from(runs[0].state)).toEqual([1, 2]);
  });

  it('has no runs for a run whose connections never entered a state', () => {
    expect(stateRuns(flowWindows(fakeResult()), 'bbrState', 1)).toEqual([]);
  });
});

describe('cubicKMarks', () => {
  it('marks t_epoch + K at W_max for each stage that lasted until then (RFC 9438 §4.2)', () => {
    // Flow a: a stage from 5 ms with K = 4 ms (reached at 9 ms, before the next stage at 20 ms);
    // a stage from 20 ms with K = 50 ms, cut by the close at 32 ms: no mark.
    const r = fakeResult();
    r.series!.tcp.cubicEpochNs.set([5e6, 5e6, 0, 20e6, 0]);
    r.series!.tcp.cubicKNs.set([4e6, 4e6, 0, 50e6, 0]);
    r.series!.tcp.wMaxBytes.set([1000, 1000, 0, 2500, 0]);
    const marks = cubicKMarks(closedWindows(flowWindows(r), r), 0.05);
    expect(marks.map((m) => m.flow)).toEqual([0]);
    expect(Array.from(marks[0].t)).toEqual([0.009]);
    expect(Array.from(marks[0].wMax)).toEqual([1000]);
    expect(Array.from(marks[0].k)).toEqual([0.004]);
    // Left open, the second stage lasts to the end of the run: marked at 70 ms when the run ends at 80 ms.
    const open = cubicKMarks(flowWindows(r), 0.08);
    expect(Array.from(open[0].t)).toEqual([0.009, 0.07]);
  });

  it('marks nothing for other flavors', () => {
    expect(cubicKMarks(flowWindows(fakeResult()), 1)).toEqual([]);
  });
});

describe('the W_max and pacing-gain columns', () => {
  it('reads W_max where CUBIC set it, none elsewhere', () => {
    const w = flowWindows(withColumn('wMaxBytes', [0, 3000, 0, 4000, 0]));
    expect(Array.from(windowColumn('wMaxBytes').values(w[0]))).toEqual([NaN, 3000, 4000]);
    expect(windowColumn('wMaxBytes').csv(NaN)).toBe('');
  });

  it('reads the pacing gain in thousandths as a factor', () => {
    const w = flowWindows(withColumn('bbrPacingGainMilli', [2885, 347, 0, 1250, 0]));
    expect(Array.from(windowColumn('bbrPacingGainMilli').values(w[0]))).toEqual([2.885, 0.347, 1.25]);
    expect(windowColumn('bbrPacingGainMilli').format(1.25)).toBe('1.25×');
  });

  it('puts W_max, K and the Careful Resume band on the cwnd plot, BBR’s state on its own', () => {
    const cwnd = windowViews.find((v) => v.key === 'cwnd')!;
    expect(cwnd.columns).toContain('wMaxBytes');
    expect(cwnd.cubicK).toBe(true);
    expect(cwnd.band).toBe('crPhase');
    const bbr = windowViews.find((v) => v.key === 'bbr-state')!;
    expect(bbr.columns).toEqual(['bbrPacingGainMilli']);
    expect(bbr.band).toBe('bbrState');
  });

  it('takes every label, line, unit and CSV header from sim-core/trace/columns.json', () => {
    const shown = (key: string) => {
      const c = windowColumn(key);
      return [c.label, c.csvName, c.dashed ? 'dashed' : c.dotted ? 'dotted' : 'solid'];
    };
    expect(shown('cwndBytes')).toEqual(['cwnd', 'cwnd_bytes', 'solid']);
    expect(shown('ssthreshBytes')).toEqual(['ssthresh', 'ssthresh_bytes', 'dashed']);
    expect(shown('srttNs')).toEqual(['srtt', 'srtt_s', 'solid']);
    expect(shown('wMaxBytes')).toEqual(['W_max', 'w_max_bytes', 'dotted']);
    expect(shown('bbrPacingGainMilli')).toEqual(['pacing gain', 'bbr_pacing_gain', 'solid']);
    expect(shown('btlBwBps')).toEqual(['BBR bandwidth', 'btl_bw_bps', 'dashed']);
    // Infinite ssthresh (-1), a 0 that has a word, and a column with no display, as recorded.
    expect(windowColumn('ssthreshBytes').format(NaN)).toBe('∞');
    expect(windowColumn('ssthreshBytes').csv(NaN)).toBe('infinite');
    expect(windowColumn('pacingBps').format(0)).toBe('not paced');
    expect(windowColumn('pacingBps').format(2.5e6)).toBe('2.5 Mb/s');
    expect(windowColumn('rttvarNs').label).toBe('rttvarNs');
  });
});
