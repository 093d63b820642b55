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
        Jain's index {formatValue(jain)} over {flows} flows: a few flows take most of the bottleneck while others starve. Flows with equal round-trip
        times behind a drop-tail queue can lock into phase (Floyd and Jacobson, “On Traffic Phase Effects in Packet-Switched Gateways”, 1992): a flow
        whose window has stopped growing (at its receive window, <code>tcp.receiveWindowBytes</code>) sends one packet per ACK, so its packets reach the
        queue just after one of its own has left and are never dropped, while the flows still growing take every drop. Which flow gets there first can
        depend on the seed; a receive window larger than the path's share lets every window grow and breaks the lock-in.
      </p>
    )}
    </>
  );
}
