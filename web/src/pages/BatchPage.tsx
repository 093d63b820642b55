// A batch: live progress while it runs, then the results table (mean and 95% CI per point and
// metric), a sweep chart with CI error bars, and CSV/JSON downloads.
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, type Batch } from '../api';
import { SweepChart, type SweepLine } from '../charts/SweepChart';
import { toCsv } from '../data/csv';
import { formatValue } from '../data/summary';
import { download } from '../charts/export';
import { usePolled } from './usePolled';

const finished = (s: Batch['status']) => s === 'completed' || s === 'cancelled' || s === 'failed';

export function BatchPage() {
  const { id = '' } = useParams();
  const { value: batch, setValue: setBatch, error, setError } = usePolled(id, () => api.getBatch(id), (b) => finished(b.status));
  const [metric, setMetric] = useState<string>('');
  const [xParam, setXParam] = useState<string>('');

  const params = useMemo(() => Object.keys(batch?.grid ?? {}), [batch]);
  const metricName = metric || batch?.metrics.find((m) => batch.points.some((p) => p.stats[m.name]?.mean != null))?.name || batch?.metrics[0]?.name || '';
  const x = xParam || params[0] || '';
  const metricInfo = batch?.metrics.find((m) => m.name === metricName);

  const lines: SweepLine[] = useMemo(() => {
    if (!batch || !x) return [];
    const byRest = new Map<string, SweepLine>();
    for (const p of batch.points) {
      const rest = params.filter((k) => k !== x).map((k) => `${k}=${JSON.stringify(p.params[k])}`).join(', ') || metricInfo?.label || metricName;
      if (!byRest.has(rest)) byRest.set(rest, { name: rest, points: [] });
      const s = p.stats[metricName];
      const v = p.params[x];
      // ci95 is [low, high] (an array of two in the API's schema).
      const ci: [number, number] | null = s?.ci95 ? [s.ci95[0], s.ci95[1]] : null;
      byRest.get(rest)!.points.push({ x: typeof v === 'number' ? v : String(v), mean: s?.mean ?? null, ci });
    }
    return [...byRest.values()];
  }, [batch, x, params, metricName, metricInfo]);

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
  const table = {
    columns: [...params, 'runs', ...batch.metrics.flatMap((m) => [`${m.label}${m.unit ? ` (${m.unit})` : ''} mean`, 'ci95 low', 'ci95 high'])],
    rows: batch.points.map((p) => [
      ...params.map((k) => JSON.stringify(p.params[k])),
      p.runs,
      ...batch.metrics.flatMap((m) => [p.stats[m.name]?.mean ?? null, p.stats[m.name]?.ci95?.[0] ?? null, p.stats[m.name]?.ci95?.[1] ?? null]),
    ]),
  };

  return (
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
      {batch.metrics.length > 0 && batch.points.length > 0 && (
        <>
          <div className="run-bar">
            <label className="inline">
              metric{' '}
              <select value={metricName} onChange={(e) => setMetric(e.target.value)}>
                {batch.metrics.map((m) => (
                  <option key={m.name} value={m.name}>{m.label}</option>
                ))}
              </select>
            </label>
            {params.length > 1 && (
              <label className="inline">
                x axis{' '}
                <select value={x} onChange={(e) => setXParam(e.target.value)}>
                  {params.map((p) => <option key={p} value={p}>{p}</option>)}
                </select>
              </label>
            )}
          </div>
          {x && (
            <SweepChart
              title={`${metricInfo?.label ?? metricName} against ${x} (mean, 95% CI)`}
              xLabel={x}
              yLabel={`${metricInfo?.label ?? metricName}${metricInfo?.unit ? ` (${metricInfo.unit})` : ''}`}
              lines={lines}
            />
          )}
          <div className="table-scroll">
            <table data-testid="batch-table">
              <thead>
                <tr>
                  {params.map((p) => <th key={p} scope="col">{p}</th>)}
                  <th scope="col">runs</th>
                  {batch.metrics.map((m) => <th key={m.name} scope="col">{m.label}{m.unit ? ` (${m.unit})` : ''}</th>)}
                </tr>
              </thead>
              <tbody>
                {batch.points.map((p, i) => (
                  <tr key={i}>
                    {params.map((k) => <td key={k}>{JSON.stringify(p.params[k])}</td>)}
                    <td>{p.runs}</td>
                    {batch.metrics.map((m) => {
                      const s = p.stats[m.name];
                      return (
                        <td key={m.name}>
                          {formatValue(s?.mean ?? null)}
                          {s?.ci95 && s.mean != null ? ` ± ${formatValue((s.ci95[1] - s.ci95[0]) / 2)}` : ''}
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
  );
}
