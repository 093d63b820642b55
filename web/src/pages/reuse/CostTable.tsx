// The cost of each scheme at one size and idle time: the repeat visit against the baseline, the
// first visit, losses and the longest queue joined (and the competitor's), with a CSV, and the
// losses as bars (or a note that there were none).
import { BarChart } from '../../charts/BarChart';
import { download } from '../../charts/export';
import { toCsv } from '../../data/csv';
import { metricInfo, type Cell, type costRows, type ReuseSpec } from '../../data/reuse';
import { formatValue } from '../../data/summary';

type Cost = ReturnType<typeof costRows>;

export function CostTable({ cost, spec, ci, where }: { cost: Cost; spec: ReuseSpec; ci: boolean; where: string }) {
  const costBars = {
    categories: cost.rows.map((r) => r.scheme),
    series: [
      { name: 'retransmissions', values: cost.rows.map((r) => r.cell.stats?.retransmissions.mean ?? null), ci: ci ? cost.rows.map((r) => r.cell.stats?.retransmissions.ci95 ?? null) : undefined },
      { name: 'packets dropped', values: cost.rows.map((r) => r.cell.stats?.dropped.mean ?? null), ci: ci ? cost.rows.map((r) => r.cell.stats?.dropped.ci95 ?? null) : undefined },
      ...(spec.competitor
        ? [{ name: 'competitor’s packets dropped', values: cost.rows.map((r) => r.cell.stats?.competitorDropped.mean ?? null), ci: ci ? cost.rows.map((r) => r.cell.stats?.competitorDropped.ci95 ?? null) : undefined }]
        : []),
    ],
  };
  return (
    <>
      <h4>
        The cost at {where}{' '}
        <button type="button" onClick={() => download('reuse-cost.csv', toCsv(costTable(cost, spec)), 'text/csv')}>
          CSV
        </button>
      </h4>
      {/* A scroll box on a narrow screen: focusable, so the keyboard can scroll it. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="The cost per scheme (scrolls sideways)">
        <table data-testid="reuse-table">
          <thead>
            <tr>
              <th scope="col">scheme</th>
              <th scope="col">repeat visit (s)</th>
              <th scope="col">against {cost.baseline}</th>
              <th scope="col">first visit (s)</th>
              <th scope="col">retransmissions</th>
              <th scope="col">packets dropped</th>
              <th scope="col">longest queue joined (packets)</th>
              {spec.competitor && (
                <>
                  <th scope="col">competitor’s repeat visit (s)</th>
                  <th scope="col">competitor’s packets dropped</th>
                  <th scope="col">competitor’s retransmissions</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {cost.rows.map((r) => (
              <tr key={r.scheme} data-scheme={r.scheme}>
                <th scope="row">{r.scheme}</th>
                <Value cell={r.cell} metric="completionS" ci={ci} />
                <td data-value={r.gainS ?? ''}>
                  {r.gainS === null ? '–' : `${r.gainS > 0 ? '+' : ''}${formatValue(r.gainS)} s`}
                  {r.gainRelative !== null && r.gainS !== 0 ? ` (${r.gainRelative > 0 ? '+' : ''}${(r.gainRelative * 100).toFixed(1)} %)` : ''}
                </td>
                <Value cell={r.cell} metric="firstS" ci={ci} />
                <Value cell={r.cell} metric="retransmissions" ci={ci} />
                <Value cell={r.cell} metric="dropped" ci={ci} />
                <Value cell={r.cell} metric="peakQueue" ci={ci} />
                {spec.competitor && (
                  <>
                    <Value cell={r.cell} metric="competitorS" ci={ci} />
                    <Value cell={r.cell} metric="competitorDropped" ci={ci} />
                    <Value cell={r.cell} metric="competitorRetransmissions" ci={ci} />
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {costBars.series.some((s) => s.values.some((v) => v !== null && v > 0)) ? (
        <BarChart title={`Losses per scheme (${where})`} yLabel="packets" bars={costBars} />
      ) : (
        <p className="note" data-testid="reuse-no-losses">
          No scheme’s repeat visit {spec.competitor ? 'or competitor ' : ''}lost a packet at {where}.
        </p>
      )}
    </>
  );
}

function Value({ cell, metric, ci }: { cell: Cell; metric: keyof Cell['samples']; ci: boolean }) {
  const s = cell.stats?.[metric];
  const missing = cell.missing[metric];
  return (
    <td data-metric={metric} data-value={s?.mean ?? ''}>
      {formatValue(s?.mean ?? null)}
      {ci && s?.ci95 ? ` ± ${formatValue((s.ci95[1] - s.ci95[0]) / 2)}` : ''}
      {missing > 0 && <span className="hint"> ({missing} of {cell.runs} runs did not finish)</span>}
      <span className="sr-only">{` ${metricInfo[metric].unit}`}</span>
    </td>
  );
}


function costTable(cost: Cost, spec: ReuseSpec) {
  const keys = (['completionS', 'firstS', 'retransmissions', 'dropped', 'peakQueue', 'competitorS', 'competitorDropped', 'competitorRetransmissions'] as const).filter(
    (k) => spec.competitor || !metricInfo[k].competitor,
  );
  return {
    columns: ['scheme', `against ${cost.baseline} (s)`, ...keys.flatMap((k) => [`${metricInfo[k].label} mean`, 'ci95 low', 'ci95 high'])],
    rows: cost.rows.map((r) => [r.scheme, r.gainS, ...keys.flatMap((k) => [r.cell.stats?.[k].mean ?? null, r.cell.stats?.[k].ci95?.[0] ?? null, r.cell.stats?.[k].ci95?.[1] ?? null])]),
  };
}
