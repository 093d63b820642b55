// The transforms on real runs of the engine (@tcb-lab/sim in Node worker threads).
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '@tcb-lab/sim';
import { groupWindows, flowWindows, queueLines } from '../src/data/series';
import { timeSequence } from '../src/data/timeseq';

const sim = createSimulator({ maxWorkers: 1 });
afterAll(() => sim.close());

describe('a preset run through the transforms', () => {
  it('etcp-fig4-fair: three connections, one ensemble whose window the members share', async () => {
    const result = await sim.runScenario(await sim.getPreset('etcp-fig4-fair'), { trace: 'full' });
    const ts = timeSequence(result)!;
    const tcpFlows = result.summary.flows!.filter((f) => f.protocol === 'tcp' && f.bytes > 0);
    expect(ts.connections.length).toBe(tcpFlows.length);
    expect(ts.connections.length).toBe(3);
    // Every data segment the flows sent appears once.
    const sent = result.summary.flows!.reduce((n, f) => n + (f.dataSegmentsSent ?? 0), 0);
    expect(ts.segments.t.length).toBe(sent);
    // Segment times ascend (the decimation's binary search relies on it).
    for (let i = 1; i < ts.segments.t.length; i++) expect(ts.segments.t[i]).toBeGreaterThanOrEqual(ts.segments.t[i - 1]);
    expect(flowWindows(result).length).toBe(3);
    const groups = groupWindows(result);
    expect(groups.length).toBe(1);
    expect(groups[0].memberFlows.length).toBe(3);
  });

  it('single-reno-trace: the drops the summary counts are the drops the graph marks', async () => {
    const result = await sim.runScenario(await sim.getPreset('single-reno-trace'), { trace: 'full' });
    const ts = timeSequence(result)!;
    const queueDrops = result.summary.links!.reduce((n, l) => n + l.queueDrops + l.lossDrops, 0);
    expect(queueDrops).toBeGreaterThan(0);
    expect(ts.drops.t.length).toBe(queueDrops);
    expect(ts.segments.retx.reduce((n, r) => n + r, 0)).toBe(result.summary.run.retransmissions);
    const q = queueLines(result);
    expect(q.reduce((n, l) => n + l.dropT.length, 0)).toBe(queueDrops);
  });
});
