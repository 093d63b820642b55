// One run's results: summary, the plots on a shared time axis, and the tables.
import type { SimulationResult } from '@tcb-lab/sim';
import { useEffect, useMemo, useState } from 'react';
import { EnsembleChart, PacingChart, QueueChart, RateChart, RttChart, TimeSequenceChart, WindowChart } from '../charts/charts';
import type { Domain } from '../charts/Plot';
import { BarChart } from '../charts/StaticCharts';
import { closedWindows, flowWindows, groupWindows, niceBin, pacedWindows, queueLines, rates, rttSamples } from '../data/series';
import { flowTable, formatValue, linkTable, pageTable, runMetrics } from '../data/summary';
import { timeSequence } from '../data/timeseq';
import { DataTable } from './DataTable';

export function useDerived(result: SimulationResult) {
  return useMemo(() => {
    const ts = timeSequence(result);
    const groups = groupWindows(result);
    const windows = closedWindows(flowWindows(result), result);
    const queues = queueLines(result);
    const tEnd = Math.max(result.summary.simulatedTimeS, ts?.tMax ?? 0, 1e-6);
    const binS = niceBin(tEnd, 100);
    return {
      ts,
      windows,
      paced: pacedWindows(windows),
      groups,
      queues,
      tEnd,
      binS,
      rates: ts ? rates(ts, binS) : [],
      rtt: ts ? rttSamples(ts) : [],
    };
  }, [result]);
}

export function ResultView({ result }: { result: SimulationResult }) {
  const d = useDerived(result);
  const full: Domain = useMemo(() => [0, d.tEnd], [d.tEnd]);
  const [xDomain, setXDomain] = useState<Domain>(full);
  useEffect(() => setXDomain(full), [full]);
  const time = { xDomain, xFull: full, onXDomain: setXDomain };
  const s = result.summary;
  const flowOf = (conn: number) => d.ts?.connections[conn]?.flow ?? conn;
  const pages = s.pages ?? [];
  const flows = (s.flows ?? []).filter((f) => f.completionTimeS != null);
  const [groupIndex, setGroupIndex] = useState(0);
  const group = d.groups[Math.min(groupIndex, d.groups.length - 1)];

  return (
    <div className="results" data-testid="results" data-result-hash={s.resultHash}>
      <dl className="summary-strip">
        <div>
          <dt>resultHash</dt>
          <dd>
            <code data-testid="result-hash">{s.resultHash}</code>
          </dd>
        </div>
        <div>
          <dt>simulated</dt>
          <dd>
            {formatValue(s.simulatedTimeS)} s ({s.stopReason})
          </dd>
        </div>
        <div>
          <dt>events</dt>
          <dd>{s.run.events}</dd>
        </div>
        <div>
          <dt>simulation wall time</dt>
          <dd>{formatValue(result.wallSeconds)} s</dd>
        </div>
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
      </dl>
      {!d.ts && <p className="note">The time–sequence graph, rates and RTT samples need trace level “full”.</p>}
      {!result.series && <p className="note">Window and queue plots need trace level “series” or “full”.</p>}
      <div className="plots">
        {d.ts && <TimeSequenceChart ts={d.ts} {...time} />}
        {d.windows.length > 0 && <WindowChart windows={d.windows} {...time} />}
        {group && (
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
        {d.paced.length > 0 && <PacingChart windows={d.paced} {...time} />}
        {d.queues.length > 0 && <QueueChart queues={d.queues} {...time} />}
        {d.rates.length > 0 && <RateChart lines={d.rates} binS={d.binS} flowOf={flowOf} {...time} />}
        {d.rtt.length > 0 && <RttChart samples={d.rtt} windows={d.windows} flowOf={flowOf} {...time} />}
        {pages.length > 0 && (
          <BarChart
            title="HTML and total time per page"
            yLabel="time (s)"
            bars={{
              categories: pages.map((p) => `${p.item}#${p.client}.${p.index}`),
              series: [
                { name: 'HTML time', values: pages.map((p) => p.htmlTimeS) },
                { name: 'total time', values: pages.map((p) => p.totalTimeS) },
              ],
            }}
          />
        )}
        {pages.length === 0 && flows.length > 0 && flows.length <= 60 && (
          <BarChart
            title="Completion time per flow"
            yLabel="completion time (s)"
            bars={{ categories: flows.map((f) => f.name), series: [{ name: 'completion time', values: flows.map((f) => f.completionTimeS) }] }}
          />
        )}
      </div>
      <DataTable title="Pages" table={pageTable(s)} />
      <DataTable title="Flows" table={flowTable(s)} testId="flow-table" />
      <DataTable title="Links" table={linkTable(s)} />
    </div>
  );
}
