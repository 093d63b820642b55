// A run's numbers in one strip: the run metrics it has, the simulated time and what it took, and
// its resultHash.
import type { SimulationResult } from '@tcb-lab/sim';
import { formatValue, runMetrics } from '../../data/summary';

/** Below this Jain's index, the run's long flows split the bottleneck very unevenly: said in words. */
const unfairBelow = 0.5;

export function SummaryStrip({ result }: { result: SimulationResult }) {
  const s = result.summary;
  const jain = s.run.fairness?.jainIndex ?? null;
  const flows = s.run.fairness?.flows ?? 0;
  const unfair = jain !== null && flows > 2 && jain < unfairBelow && s.run.packets.dropped > 0;
  return (
    <>
    <dl className="summary-strip">
      {runMetrics.map((m) => {
        const v = m.get(s);
        if (v === null || v === undefined) return null;
        return (
          <div key={m.key} data-metric={m.key} data-value={v}>
            <dt>{m.label}</dt>
            <dd>
              {formatValue(v)} {m.unit}
            </dd>
          </div>
        );
      })}
      <div>
        <dt>simulated</dt>
        <dd>
          {formatValue(s.simulatedTimeS)} s ({s.stopReason}), {s.run.events} events in {formatValue(result.wallSeconds)} s
        </dd>
      </div>
      <div className="hash">
        <dt>resultHash</dt>
        <dd>
          <code data-testid="result-hash">{s.resultHash}</code>
        </dd>
      </div>
    </dl>
    {unfair && (
      <p className="note" data-testid="unfair-note">
        Jain's index {formatValue(jain)} over {flows} flows: a few flows take most of the bottleneck while others starve. Long flows that start together behind a
        drop-tail queue lock into phase: the same flows' packets arrive just after the queue frees a slot and the others' just after it fills, so the others lose
        packets round after round (Floyd and Jacobson, “On Traffic Phase Effects in Packet-Switched Gateways”, 1992). Random
        start times (<code>startJitterS</code>), loss on the path, or a larger queue break the lock-in.
      </p>
    )}
    </>
  );
}
