// One run's results, summaries first: the run's numbers, the page or flow times, then one legend for
// every plot (connections grouped by content type and traffic item, searchable) and the plots the
// reader chose, on a shared time axis and sharing the highlighted connection; the tables fold away.
import type { Scenario, SimulationResult } from '@tcb-lab/sim';
import { useEffect, useMemo, useState } from 'react';
import { EnsembleChart } from '../charts/EnsembleChart';
import { FlowSeriesChart, PacingChart, WindowChart } from '../charts/FlowSeriesChart';
import { QueueChart } from '../charts/QueueChart';
import { RateChart } from '../charts/RateChart';
import { RttChart } from '../charts/RttChart';
import { TimeSequenceChart } from '../charts/TimeSequenceChart';
import { FocusProvider } from '../charts/focus';
import type { Domain } from '../charts/Plot';
import { BarChart } from '../charts/BarChart';
import { connectionInfos } from '../data/connections';
import { bbrWindows, closedWindows, flowWindows, groupWindows, niceBin, otherSeriesColumns, pacedWindows, queueLines, rates, rttSamples, tcpColumns, windowView, type WindowView } from '../data/series';
import { completionByItem, flowTable, formatValue, linkTable, pageTable, runMetrics } from '../data/summary';
import { timeSequence } from '../data/timeseq';
import { ConnectionPanel } from './ConnectionPanel';
import { DataTable } from './DataTable';

export function useDerived(result: SimulationResult) {
  return useMemo(() => {
    const ts = timeSequence(result);
    const groups = groupWindows(result);
    const windows = closedWindows(flowWindows(result), result);
    const queues = queueLines(result);
    const tEnd = Math.max(result.summary.simulatedTimeS, ts?.tMax ?? 0, 1e-6);
    const binS = niceBin(tEnd, 100);
    return { ts, windows, paced: pacedWindows(windows), bbr: bbrWindows(windows), groups, queues, tEnd, binS };
  }, [result]);
}

/** The plots a run can show, in the order they appear. */
export const plotKinds = [
  { key: 'seq', label: 'Time–sequence' },
  { key: 'cwnd', label: 'cwnd' },
  { key: 'inflight', label: 'In flight' },
  { key: 'ensemble', label: 'Ensemble window' },
  { key: 'pacing', label: 'Pacing' },
  { key: 'bbr', label: 'BBR state' },
  { key: 'bbr-model', label: 'BBR model' },
  { key: 'queue', label: 'Queues' },
  { key: 'rates', label: 'Goodput' },
  { key: 'rtt', label: 'RTT' },
  { key: 'more', label: 'Other series columns' },
] as const;
export type PlotKind = (typeof plotKinds)[number]['key'];
/** Shown at first where the run has them (BBR's state only where BBR ran). */
export const defaultPlots: PlotKind[] = ['seq', 'cwnd', 'ensemble', 'bbr'];

export function ResultView({ result, scenario, plots: initialPlots }: { result: SimulationResult; scenario?: Scenario | null; plots?: PlotKind[] }) {
  const d = useDerived(result);
  const full: Domain = useMemo(() => [0, d.tEnd], [d.tEnd]);
  const [xDomain, setXDomain] = useState<Domain>(full);
  useEffect(() => setXDomain(full), [full]);
  const time = { xDomain, xFull: full, onXDomain: setXDomain };
  const s = result.summary;
  const flowOf = useMemo(() => (conn: number) => d.ts?.connections[conn]?.flow ?? conn, [d.ts]);
  const pages = s.pages ?? [];
  const flows = (s.flows ?? []).filter((f) => f.completionTimeS != null);
  const byItem = useMemo(() => completionByItem(s), [s]);
  const [groupIndex, setGroupIndex] = useState(0);
  const group = d.groups[Math.min(groupIndex, d.groups.length - 1)];
  const [chosen, setChosen] = useState<ReadonlySet<PlotKind>>(() => new Set(initialPlots ?? defaultPlots));

  // The connections any plot shows, for the shared legend.
  const infos = useMemo(() => {
    const seen = new Set<number>();
    d.ts?.connections.forEach((c) => seen.add(c.flow));
    d.windows.forEach((w) => seen.add(w.flow));
    return connectionInfos([...seen].sort((a, b) => a - b), result.flows, s, scenario);
  }, [d, result.flows, s, scenario]);

  // Columns of the TCP series that no plot draws (a flavour's own state, when a
  // flavour records one), plotted as recorded.
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
  // Rates and RTT samples read every segment: computed when first shown.
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
    <FocusProvider>
      <div className="results" data-testid="results" data-result-hash={s.resultHash}>
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
        {pages.length > 0 && (
          <BarChart
            title="HTML and total time per page"
            yLabel="time (s)"
            height={200}
            bars={{
              categories: pages.map((p) => `${p.item}#${p.client}.${p.index}`),
              series: [
                { name: 'HTML time', values: pages.map((p) => p.htmlTimeS) },
                { name: 'total time', values: pages.map((p) => p.totalTimeS) },
              ],
            }}
          />
        )}
        {pages.length === 0 && flows.length > 0 && flows.length <= 16 && (
          <BarChart
            title="Completion time per flow"
            yLabel="completion time (s)"
            height={200}
            bars={{ categories: flows.map((f) => f.name), series: [{ name: 'completion time', values: flows.map((f) => f.completionTimeS) }] }}
          />
        )}
        {pages.length === 0 && flows.length > 16 && (
          <BarChart
            title="Completion time per traffic item (mean, with the fastest and slowest flow)"
            yLabel="completion time (s)"
            height={200}
            bars={{
              categories: byItem.map((i) => `${i.item} (${i.flows})`),
              series: [{ name: 'mean completion time', values: byItem.map((i) => i.mean), ci: byItem.map((i) => [i.min, i.max]), rangeName: 'range' }],
            }}
          />
        )}
        <ConnectionPanel infos={infos} />
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
        <details className="tables">
          <summary>Tables: pages, flows, links</summary>
          <DataTable title="Pages" table={pageTable(s)} />
          <DataTable title="Flows" table={flowTable(s)} testId="flow-table" />
          <DataTable title="Links" table={linkTable(s)} />
        </details>
      </div>
    </FocusProvider>
  );
}
