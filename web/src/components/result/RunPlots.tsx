// The plots the reader chose, of those the run has, on one time axis: toggles for each, then the
// plots. Rates and RTT samples read every segment: they are computed when first shown.
import type { SimulationResult } from '@tcb-lab/sim';
import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { EnsembleChart } from '../../charts/EnsembleChart';
import { FlowSeriesChart, PacingChart, WindowChart } from '../../charts/FlowSeriesChart';
import type { Domain } from '../../charts/Plot';
import { QueueChart } from '../../charts/QueueChart';
import { RateChart } from '../../charts/RateChart';
import { RttChart } from '../../charts/RttChart';
import { TimeSequenceChart } from '../../charts/TimeSequenceChart';
import { otherSeriesColumns, rates, rttSamples, tcpColumns, windowView, type WindowView } from '../../data/series';
import { plotKinds, type PlotKind } from './plotKinds';
import type { Derived } from './useDerived';

export function RunPlots({
  result,
  d,
  chosen,
  setChosen,
}: {
  result: SimulationResult;
  d: Derived;
  chosen: ReadonlySet<PlotKind>;
  setChosen: Dispatch<SetStateAction<ReadonlySet<PlotKind>>>;
}) {
  const full: Domain = useMemo(() => [0, d.tEnd], [d.tEnd]);
  const [xDomain, setXDomain] = useState<Domain>(full);
  useEffect(() => setXDomain(full), [full]);
  const time = { xDomain, xFull: full, onXDomain: setXDomain };
  const flowOf = useMemo(() => (conn: number) => d.ts?.connections[conn]?.flow ?? conn, [d.ts]);
  const [groupIndex, setGroupIndex] = useState(0);
  const group = d.groups[Math.min(groupIndex, d.groups.length - 1)];

  // Columns of the TCP series that no plot draws (a flavour's own state, when a flavour records
  // one), plotted as recorded.
  const others = useMemo(() => otherSeriesColumns(d.windows), [d.windows]);
  const [other, setOther] = useState('');
  const otherKey = others.includes(other) ? other : (others[0] ?? '');
  const otherView: WindowView = {
    key: 'more',
    title: `${otherKey} per connection (as recorded)`,
    yLabel: tcpColumns[otherKey]?.unit ? `${otherKey} (${tcpColumns[otherKey].unit})` : otherKey,
    columns: [otherKey],
    caption: 'A column of the TCP series as the simulator records it (series.json), per connection.',
  };
  const rateLines = useMemo(() => (chosen.has('rates') && d.ts ? rates(d.ts, d.binS) : null), [d, chosen]);
  const rtt = useMemo(() => (chosen.has('rtt') && d.ts ? rttSamples(d.ts) : null), [d, chosen]);
  const available: Record<PlotKind, boolean> = {
    seq: !!d.ts,
    cwnd: d.windows.length > 0,
    inflight: d.windows.length > 0,
    ensemble: !!group,
    pacing: d.paced.length > 0,
    bbr: d.bbr.length > 0,
    'bbr-model': d.bbr.length > 0,
    queue: d.queues.length > 0,
    rates: !!d.ts && d.ts.connections.length > 0,
    rtt: !!d.ts && d.ts.connections.length > 0,
    more: others.length > 0,
  };
  const show = (k: PlotKind) => available[k] && chosen.has(k);
  const toggle = (k: PlotKind) =>
    setChosen((c) => {
      const next = new Set(c);
      if (!next.delete(k)) next.add(k);
      return next;
    });

  return (
    <>
      <div className="plot-choice" role="group" aria-label="Plots to show">
        <span className="hint">Plots:</span>
        {plotKinds.map((k) =>
          available[k.key] ? (
            <button key={k.key} type="button" aria-pressed={chosen.has(k.key)} onClick={() => toggle(k.key)} data-plot-toggle={k.key}>
              {k.label}
            </button>
          ) : null,
        )}
      </div>
      {!d.ts && <p className="note">The time–sequence graph, rates and RTT samples need trace level “full”.</p>}
      {!result.series && <p className="note">Window and queue plots need trace level “series” or “full”.</p>}
      <div className="plots">
        {show('seq') && <TimeSequenceChart ts={d.ts!} {...time} />}
        {show('cwnd') && <WindowChart windows={d.windows} tEnd={d.tEnd} {...time} />}
        {show('inflight') && <FlowSeriesChart windows={d.windows} view={windowView('inflight')} {...time} />}
        {show('ensemble') && (
          <div>
            {d.groups.length > 1 && (
              <label className="inline">
                Ensemble{' '}
                <select value={groupIndex} onChange={(e) => setGroupIndex(Number(e.target.value))}>
                  {d.groups.map((g, i) => (
                    <option key={g.group} value={i}>
                      {g.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <EnsembleChart group={group} flowNames={result.flows} {...time} />
          </div>
        )}
        {show('pacing') && <PacingChart windows={d.paced} {...time} />}
        {show('bbr') && <FlowSeriesChart windows={d.bbr} view={windowView('bbr-state')} tEnd={d.tEnd} {...time} />}
        {show('bbr-model') && (
          <>
            <FlowSeriesChart windows={d.bbr} view={windowView('bbr-bw')} {...time} />
            <FlowSeriesChart windows={d.bbr} view={windowView('bbr-rtt')} {...time} />
          </>
        )}
        {show('queue') && <QueueChart queues={d.queues} {...time} />}
        {show('rates') && rateLines && <RateChart lines={rateLines} binS={d.binS} flowOf={flowOf} {...time} />}
        {show('rtt') && rtt && <RttChart samples={rtt} windows={d.windows} flowOf={flowOf} {...time} />}
        {show('more') && (
          <div>
            <label className="inline">
              Column{' '}
              <select value={otherKey} onChange={(e) => setOther(e.target.value)}>
                {others.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </label>
            <FlowSeriesChart key={otherKey} windows={d.windows} view={otherView} {...time} />
          </div>
        )}
      </div>
    </>
  );
}
