// One run's results, summaries first: the run's numbers, the page or flow times, then one legend for
// every plot (connections grouped by content type and traffic item, searchable) and the plots the
// reader chose, on a shared time axis and sharing the highlighted connection; the tables fold away.
import type { Scenario, SimulationResult } from '@tcb-lab/sim';
import { useMemo, useState } from 'react';
import { FigureSource } from '../charts/figure';
import { FocusProvider } from '../charts/focus';
import { connectionInfos } from '../data/connections';
import { flowTable, linkTable, pageTable } from '../data/summary';
import { ConnectionPanel } from './ConnectionPanel';
import { DataTable } from './DataTable';
import { defaultPlots, type PlotKind } from './result/plotKinds';
import { RunPlots } from './result/RunPlots';
import { SummaryStrip } from './result/SummaryStrip';
import { TimeBars } from './result/TimeBars';
import { useDerived } from './result/useDerived';

export { defaultPlots, plotKinds, type PlotKind } from './result/plotKinds';

export function ResultView({ result, scenario, plots }: { result: SimulationResult; scenario?: Scenario | null; plots?: PlotKind[] }) {
  const d = useDerived(result);
  // The plots the reader chose, kept here: a re-run's plots replace the last run's once derived.
  const [chosen, setChosen] = useState<ReadonlySet<PlotKind>>(() => new Set(plots ?? defaultPlots));
  const s = result.summary;
  // The connections any plot shows, for the shared legend.
  const infos = useMemo(() => {
    if (!d) return [];
    const seen = new Set<number>();
    d.ts?.connections.forEach((c) => seen.add(c.flow));
    d.windows.forEach((w) => seen.add(w.flow));
    return connectionInfos([...seen].sort((a, b) => a - b), result.flows, s, scenario);
  }, [d, result.flows, s, scenario]);

  // Every figure exported from this run names it: the scenario and the run's resultHash.
  const source = `Scenario ${scenario?.name ?? s.scenario?.name ?? 'unnamed'}, seed ${s.scenario?.seed ?? scenario?.seed ?? '?'}; tcb-lab resultHash ${s.resultHash}.`;
  return (
    <FigureSource.Provider value={source}>
    <FocusProvider>
      <div className="results" data-testid="results" data-result-hash={s.resultHash}>
        <SummaryStrip result={result} />
        <TimeBars summary={s} />
        <ConnectionPanel infos={infos} />
        {d ? (
          <RunPlots result={result} d={d} chosen={chosen} setChosen={setChosen} />
        ) : (
          <p className="note" data-testid="plots-pending">
            Preparing the plots…
          </p>
        )}
        <details className="tables">
          <summary>Tables: pages, flows, links</summary>
          <DataTable title="Pages" table={pageTable(s)} />
          <DataTable title="Flows" table={flowTable(s)} testId="flow-table" />
          <DataTable title="Links" table={linkTable(s)} />
        </details>
      </div>
    </FocusProvider>
    </FigureSource.Provider>
  );
}
