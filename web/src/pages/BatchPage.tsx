// A batch: live progress while it runs, then the results in words (data/batchView.ts): a sweep
// chart of a metric that applies, with CI error bars, against a parameter labelled from the
// schema; the table of every point (mean ± CI half-width, or a word that the replications were
// identical); and CSV/JSON downloads.
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, type Batch } from '../api';
import { download } from '../charts/export';
import { FigureSource } from '../charts/figure';
import { SweepChart } from '../charts/SweepChart';
import { allIdentical, applicableMetrics, batchLines, defaultMetric, defaultX, parameterLabel } from '../data/batchView';
import { toCsv } from '../data/csv';
import { formatValue } from '../data/summary';
import { valueLabel } from '../data/sweepValues';
import { usePolled } from './usePolled';

const finished = (s: Batch['status']) => s === 'completed' || s === 'cancelled' || s === 'failed';

/** What the table and the chart say when every replication of a point gave the same numbers. */
const identicalWords = 'all replications identical — the scenario has no randomness';

export function BatchPage() {
  const { id = '' } = useParams();
  const { value: batch, setValue: setBatch, error, setError } = usePolled(id, () => api.getBatch(id), (b) => finished(b.status));
  const [metric, setMetric] = useState<string>('');
  const [xParam, setXParam] = useState<string>('');

  const params = useMemo(() => batch?.pointers ?? Object.keys(batch?.grid ?? {}), [batch]);
  const metrics = useMemo(() => (batch ? applicableMetrics(batch) : []), [batch]);
  const metricName = (metrics.some((m) => m.name === metric) && metric) || (batch ? defaultMetric(batch) : '');
  const x = xParam || (batch ? defaultX(batch) : '');
  const metricInfo = batch?.metrics.find((m) => m.name === metricName);
  const lines = useMemo(() => (batch && x && metricName ? batchLines(batch, x, metricName) : []), [batch, x, metricName]);

  if (error && !batch)
    return (
      <main className="page">
        <h2>Batch {id}</h2>
        <p className="error" role="alert" data-testid="batch-error">
          {error.status === 404 ? `There is no batch with id “${id}”.` : error.message}
        </p>
      </main>
    );
  if (!batch) return <main className="page"><p>Loading batch {id}…</p></main>;

  const { counts } = batch;
  const completed = counts.done + counts.failed + counts.cancelled;
  const percent = counts.total ? Math.round((100 * completed) / counts.total) : 0;
  const labels = Object.fromEntries(params.map((p) => [p, parameterLabel(batch, p)]));
  const table = {
    columns: [...params.map((p) => labels[p]), 'runs', 'replications identical', ...batch.metrics.flatMap((m) => [`${m.label}${m.unit ? ` (${m.unit})` : ''} mean`, 'ci95 low', 'ci95 high'])],
    rows: batch.points.map((p) => [
      ...params.map((k) => valueLabel(p.params[k])),
      p.runs,
      p.identicalReplications ? 'yes' : 'no',
      ...batch.metrics.flatMap((m) => [p.stats[m.name]?.mean ?? null, p.stats[m.name]?.ci95?.[0] ?? null, p.stats[m.name]?.ci95?.[1] ?? null]),
    ]),
  };
  const identical = allIdentical(batch);
  const metricLabel = `${metricInfo?.label ?? metricName}${metricInfo?.unit ? ` (${metricInfo.unit})` : ''}`;

  return (
    <FigureSource.Provider value={`Batch ${id} of scenario ${batch.scenario.name ?? 'unnamed'}: ${counts.done} runs, ${batch.replications} per point (tcb-lab).`}>
    <main className="page batch-page" data-testid="batch-page" data-status={batch.status}>
      <h2>Batch {batch.title ? `“${batch.title}”` : id}</h2>
      {error && <p className="error" role="alert">{error.message} (retrying)</p>}
      <div className="run-bar">
        <progress max={100} value={percent} aria-label="Batch progress" data-testid="batch-progress" data-percent={percent} />
        <span role="status" aria-live="polite">
          {batch.status}: {completed} of {counts.total} runs ({percent} %){counts.failed ? `, ${counts.failed} failed` : ''}
          {counts.cancelled ? `, ${counts.cancelled} cancelled` : ''}
        </span>
        {!finished(batch.status) && (
          <button type="button" onClick={() => api.cancelBatch(id).then(setBatch, (e) => setError({ message: String(e.message ?? e), status: 0 }))}>
            Cancel batch
          </button>
        )}
      </div>
      <p>
        Download results: <a href={api.batchResultsUrl(id, 'csv')} download={`batch-${id}.csv`} data-testid="batch-csv">CSV</a> ·{' '}
        <a href={api.batchResultsUrl(id, 'json')} download={`batch-${id}.json`}>JSON</a> (one row per run) · points:{' '}
        <button type="button" onClick={() => download(`batch-${id}-points.csv`, toCsv(table), 'text/csv')}>CSV</button>
      </p>
      {identical && (
        <p className="note" data-testid="batch-identical">
          All replications identical — the scenario has no randomness: each point's {batch.replications} runs with seeds seed … seed + {batch.replications - 1} gave the same
          numbers, so there is no interval to draw. Random start times (startJitterS) or loss make the seeds matter.
        </p>
      )}
      {metrics.length > 0 && batch.points.length > 0 && (
        <>
          <div className="run-bar">
            <label className="inline">
              metric{' '}
              <select value={metricName} onChange={(e) => setMetric(e.target.value)} data-testid="batch-metric">
                {metrics.map((m) => (
                  <option key={m.name} value={m.name}>{m.label}</option>
                ))}
              </select>
            </label>
            {params.length > 1 && (
              <label className="inline">
                x axis{' '}
                <select value={x} onChange={(e) => setXParam(e.target.value)}>
                  {params.map((p) => <option key={p} value={p}>{labels[p]}</option>)}
                </select>
              </label>
            )}
          </div>
          {x && (
            <SweepChart
              title={`${metricInfo?.label ?? metricName} against ${labels[x]} (${identical ? 'identical replications' : batch.replications > 1 ? 'mean, 95% CI' : 'one run per point'})`}
              xLabel={labels[x]}
              yLabel={metricLabel}
              lines={lines}
            />
          )}
          <div className="table-scroll">
            <table data-testid="batch-table">
              <thead>
                <tr>
                  {params.map((p) => <th key={p} scope="col" title={p}>{labels[p]}</th>)}
                  <th scope="col">runs</th>
                  {metrics.map((m) => <th key={m.name} scope="col">{m.label}{m.unit ? ` (${m.unit})` : ''}</th>)}
                </tr>
              </thead>
              <tbody>
                {batch.points.map((p, i) => (
                  <tr key={i} data-identical={p.identicalReplications}>
                    {params.map((k) => <td key={k}>{valueLabel(p.params[k])}</td>)}
                    <td>
                      {p.runs}
                      {p.identicalReplications && !identical && <span className="hint" title={identicalWords}> (identical)</span>}
                    </td>
                    {metrics.map((m) => {
                      const s = p.stats[m.name];
                      return (
                        <td key={m.name}>
                          {formatValue(s?.mean ?? null)}
                          {s?.ci95 && s.mean != null && !p.identicalReplications ? ` ± ${formatValue((s.ci95[1] - s.ci95[0]) / 2)}` : ''}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <details>
        <summary>Scenario and grid</summary>
        <pre>{JSON.stringify({ grid: batch.grid, replications: batch.replications, scenario: batch.scenario }, null, 2)}</pre>
      </details>
    </main>
    </FigureSource.Provider>
  );
}
