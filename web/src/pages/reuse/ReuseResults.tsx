// What a reuse sweep gave: where it ran, the repeat visit's completion time against the idle time
// and against the size (one line per scheme), the cost table at the chosen size and idle time, and
// every point of the sweep.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { SweepChart } from '../../charts/SweepChart';
import { bytesLabel, costRows, evenlySpaced, labelled, linesAgainst, sizeLabel } from '../../data/reuse';
import { secondsLabel } from '../../data/units';
import { CostTable } from './CostTable';
import { SweepCells } from './SweepCells';
import type { Outcome } from './types';

export function ReuseResults({ outcome }: { outcome: Outcome }) {
  const { question, cells, source } = outcome;
  const { spec } = question;
  const sizes = spec.sizes as (number | string)[];
  const [size, setSize] = useState<number | string>(sizes[sizes.length - 1]);
  const [idle, setIdle] = useState<number>(spec.idle[Math.min(1, spec.idle.length - 1)]);
  const idleSpaced = evenlySpaced(spec.idle);
  const sizeSpaced = evenlySpaced(cells.map((c) => c.bytes).filter((b, i, all) => all.indexOf(b) === i));
  const againstIdle = useMemo(() => {
    const lines = linesAgainst(cells, spec, 'idle', size, 'completionS');
    return idleSpaced ? labelled(lines, (t) => `${t} s`) : lines;
  }, [cells, spec, size, idleSpaced]);
  const againstSize = useMemo(() => {
    const lines = linesAgainst(cells, spec, 'size', idle, 'completionS');
    return sizeSpaced ? labelled(lines, bytesLabel) : lines;
  }, [cells, spec, idle, sizeSpaced]);
  const cost = useMemo(() => costRows(cells, spec, size, idle), [cells, spec, size, idle]);
  const ci = spec.replications > 1;
  const sized = sizeLabel(spec, size);
  return (
    <section className="reuse-results" aria-labelledby="reuse-results-title" data-testid="reuse-results" data-source={source.kind}>
      <h3 id="reuse-results-title">What reuse gave</h3>
      <p className="hint" data-testid="reuse-source">
        {source.kind === 'browser' ? (
          <>Ran in this browser: {cells.reduce((n, c) => n + c.runs, 0)} runs in {(source.elapsedMs / 1000).toFixed(1)} s.</>
        ) : (
          <>
            Ran on the server: batch <Link to={`/b/${source.batch}`}>{source.batch}</Link> (per-run CSV and JSON there).
          </>
        )}{' '}
        {ci ? 'Means of the replications with 95% confidence intervals.' : 'One run per point: more replications give confidence intervals.'}
      </p>
      <div className="run-bar reuse-pick">
        <label className="inline">
          size{' '}
          <select value={String(size)} onChange={(e) => setSize(sizes.find((s) => String(s) === e.target.value)!)} data-testid="reuse-pick-size">
            {sizes.map((s) => (
              <option key={String(s)} value={String(s)}>
                {sizeLabel(spec, s)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          idle time{' '}
          <select value={String(idle)} onChange={(e) => setIdle(Number(e.target.value))} data-testid="reuse-pick-idle">
            {spec.idle.map((t) => (
              <option key={t} value={String(t)}>
                {secondsLabel(t)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="reuse-charts">
        <SweepChart
          title={`Repeat visit against the idle time (${sized})`}
          xLabel={idleSpaced ? 'idle time T (evenly spaced)' : 'idle time T (s)'}
          yLabel="completion time (s)"
          lines={againstIdle}
        />
        <SweepChart
          title={`Repeat visit against the size (idle ${secondsLabel(idle)})`}
          xLabel={`${spec.workload === 'download' ? 'size S' : 'page size'}${sizeSpaced ? ' (evenly spaced)' : ' (bytes)'}`}
          yLabel="completion time (s)"
          lines={againstSize}
        />
      </div>
      <CostTable cost={cost} spec={spec} ci={ci} where={`${sized}, idle ${secondsLabel(idle)}`} />
      <SweepCells cells={cells} spec={spec} />
    </section>
  );
}
