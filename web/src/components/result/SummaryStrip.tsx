// A run's numbers in one strip: the run metrics it has, the simulated time and what it took, and
// its resultHash.
import type { SimulationResult } from '@tcb-lab/sim';
import { formatValue, runMetrics } from '../../data/summary';

export function SummaryStrip({ result }: { result: SimulationResult }) {
  const s = result.summary;
  return (
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
  );
}
