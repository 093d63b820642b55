// Compare mode: the same scenario and seed under several schemes, or one parameter at several
// values; small multiples on shared axes and a difference table.
import { jsonPathToPointer, runScenario, type Scenario, type SimulationResult, type TraceLevel } from '@tcb-lab/sim';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FocusProvider } from '../charts/focus';
import { EnsembleChart } from '../charts/EnsembleChart';
import { FigureSource } from '../charts/figure';
import { WindowChart } from '../charts/FlowSeriesChart';
import { extentOf } from '../charts/time';
import { TimeSequenceChart } from '../charts/TimeSequenceChart';
import type { Domain } from '../charts/Plot';
import { BarChart } from '../charts/BarChart';
import { ConnectionPanel } from './ConnectionPanel';
import { Stale } from './Stale';
import { toCsv } from '../data/csv';
import { lowerBound, upperBound } from '../data/columns';
import { scalarPointers, schemesOf, withScheme } from '../data/scenarioEdit';
import { parseValues, valueLabel } from '../data/sweepValues';
import { connectionInfos } from '../data/connections';
import { closedWindows, flowWindows, groupWindows } from '../data/series';
import { answerMetric, differenceTable, formatValue, identicalVariants } from '../data/summary';
import { timeSequence, type TimeSequence } from '../data/timeseq';
import { download } from '../charts/export';
import { schemeNames } from '../schema';
import { describeRunError, planGrid, validateScenario } from '../sim';

interface Variant {
  label: string;
  scenario: Scenario;
}

export function CompareView({
  scenario,
  valid,
  trace,
  initialSchemes,
  autoRun,
  plots,
}: {
  scenario: Scenario;
  valid: boolean;
  trace: TraceLevel;
  initialSchemes?: string[];
  /** Compare as soon as the scenario is valid (a link that asks a question). */
  autoRun?: boolean;
  /** The small multiples to draw: 'seq', 'cwnd' (both by default). */
  plots?: string[];
}) {
  const [dimension, setDimension] = useState<'scheme' | 'parameter'>('scheme');
  const [schemes, setSchemes] = useState<string[]>(() => initialSchemes ?? [...new Set(['independent', ...schemesOf(scenario)])]);
  const [pointer, setPointerText] = useState('/tcp/initialWindow');
  const [valuesText, setValuesText] = useState('1, 2, 4');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number[] | null>(null);
  const [results, setResults] = useState<{ label: string; result: SimulationResult }[] | null>(null);
  const controller = useRef<AbortController | null>(null);
  const pointers = useMemo(() => scalarPointers(scenario), [scenario]);
  // What the results shown were compared for: other inputs now dim them.
  const inputs = JSON.stringify({ scenario, trace, dimension, ...(dimension === 'scheme' ? { schemes } : { pointer, valuesText }) });
  const [comparedInputs, setComparedInputs] = useState<string | null>(null);

  // A parameter's values are a one-axis grid, planned (and checked) by sim-core as a batch's is.
  const variants = async (): Promise<Variant[]> => {
    if (dimension === 'scheme') return schemes.map((s) => ({ label: s, scenario: withScheme(scenario, s) }));
    const values = parseValues(valuesText);
    if (values.length < 2) return [];
    const plan = await planGrid({ scenario, grid: { [pointer]: values } });
    return plan.points.map((p, i) => ({ label: `${pointer} = ${valueLabel(values[i])}`, scenario: p.scenario as unknown as Scenario }));
  };

  const compare = async () => {
    setError(null);
    setResults(null);
    let vs: Variant[];
    try {
      vs = await variants();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (vs.length < 2) {
      setError('Choose at least two variants.');
      return;
    }
    for (const v of vs) {
      const check = await validateScenario(v.scenario);
      if (!check.valid) {
        setError(`${v.label}: ${check.error.path}: ${check.error.problem}`);
        return;
      }
    }
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    const fractions = vs.map(() => 0);
    setProgress([...fractions]);
    try {
      const out = await Promise.all(
        vs.map((v, i) =>
          runScenario(v.scenario, {
            trace,
            signal: c.signal,
            onProgress: (p) => {
              fractions[i] = p.fraction;
              setProgress([...fractions]);
            },
          }).then((result) => ({ label: v.label, result })),
        ),
      );
      setResults(out);
      setComparedInputs(inputs);
    } catch (e) {
      setError(describeRunError(e).message);
    } finally {
      if (controller.current === c) setProgress(null);
    }
  };

  const started = useRef(false);
  useEffect(() => {
    if (!autoRun || !valid || started.current) return;
    started.current = true;
    void compare();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoRun, valid]);

  const overall = progress ? progress.reduce((a, b) => a + b, 0) / progress.length : 0;
  return (
    <section className="compare" aria-label="Compare">
      <fieldset>
        <legend>Compare the same scenario and seed</legend>
        <label className="inline">
          <input type="radio" name="dim" checked={dimension === 'scheme'} onChange={() => setDimension('scheme')} /> under several schemes
        </label>
        <label className="inline">
          <input type="radio" name="dim" checked={dimension === 'parameter'} onChange={() => setDimension('parameter')} /> with one parameter at several values
        </label>
        {dimension === 'scheme' ? (
          <div className="checks" role="group" aria-label="Schemes">
            {schemeNames.map((s) => (
              <label key={s} className="inline">
                <input
                  type="checkbox"
                  checked={schemes.includes(s)}
                  onChange={(e) => setSchemes(e.target.checked ? [...schemes, s] : schemes.filter((x) => x !== s))}
                />{' '}
                {s}
              </label>
            ))}
          </div>
        ) : (
          <div>
            <label htmlFor="cmp-pointer">parameter (JSON Pointer)</label>
            <input id="cmp-pointer" list="cmp-pointers" value={pointer} onChange={(e) => setPointerText(e.target.value.startsWith('$') ? jsonPathToPointer(e.target.value) : e.target.value)} />
            <datalist id="cmp-pointers">
              {pointers.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
            <label htmlFor="cmp-values">values (list, or start:stop:step)</label>
            <input id="cmp-values" value={valuesText} onChange={(e) => setValuesText(e.target.value)} />
          </div>
        )}
        <button type="button" onClick={compare} disabled={!valid || !!progress} data-testid="compare-run">
          Compare
        </button>
        {progress && (
          <>
            <progress max={1} value={overall} aria-label="Comparison progress" />
            <button type="button" onClick={() => controller.current?.abort()}>
              Cancel
            </button>
          </>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </fieldset>
      {results && (
        <FocusProvider>
          <Stale stale={comparedInputs !== inputs && !progress} what="the comparison">
            <CompareResults results={results} plots={plots} />
          </Stale>
        </FocusProvider>
      )}
    </section>
  );
}

function CompareResults({ results, plots }: { results: { label: string; result: SimulationResult }[]; plots?: string[] }) {
  const showSeq = !plots || plots.includes('seq');
  const showCwnd = !plots || plots.includes('cwnd') || !showSeq;
  const summaries = useMemo(() => results.map((r) => r.result.summary), [results]);
  const rows = useMemo(() => differenceTable(summaries), [summaries]);
  const derived = useMemo(
    () =>
      results.map((r) => {
        const flows = flowWindows(r.result);
        return { label: r.label, ts: timeSequence(r.result), windows: closedWindows(flows, r.result), groups: groupWindows(r.result, flows) };
      }),
    [results],
  );
  // Every variant draws the same panels, so that the panels of one kind line up across the
  // variants: as many group-window panels as the variant with the most groups has.
  const groupPanels = Math.max(0, ...derived.map((d) => d.groups.length));
  // One legend for every panel: the variants run the same traffic, so connection i is the same
  // connection in each (its first variant's names).
  const infos = useMemo(() => {
    const first = results[0].result;
    return connectionInfos(flowWindows(first).map((w) => w.flow), first.flows, first.summary, null);
  }, [results]);
  const tEnd = Math.max(...results.map((r) => r.result.summary.simulatedTimeS), 1e-6);
  const full: Domain = useMemo(() => [0, tEnd], [tEnd]);
  const [xDomain, setXDomain] = useState<Domain>(full);
  const time = { xDomain, xFull: full, onXDomain: setXDomain };
  const seqShared = useCallback(
    (x0: number, x1: number): Domain => {
      let hi = 1;
      for (const d of derived) {
        const ts = d.ts as TimeSequence | null;
        if (!ts) continue;
        const i0 = lowerBound(ts.segments.t, x0);
        const i1 = upperBound(ts.segments.t, x1);
        for (let i = i0; i < i1; i++) if (ts.segments.hi[i] > hi) hi = ts.segments.hi[i];
      }
      return [0, hi];
    },
    [derived],
  );
  const cwndShared = useCallback(
    (x0: number, x1: number) => extentOf(derived.flatMap((d) => d.windows.flatMap((w) => [{ t: w.t, y: w.cwnd }, { t: w.t, y: w.ssthresh }])), x0, x1),
    [derived],
  );
  const labels = results.map((r) => r.label);
  const pageRuns = results.filter((r) => r.result.summary.run.pages.completed > 0);
  const table = {
    columns: ['metric', 'unit', ...labels.flatMap((l, i) => (i === 0 ? [l] : [l, `Δ ${l}`, `Δ% ${l}`]))],
    rows: rows.map((r) => [
      r.metric.label,
      r.metric.unit,
      ...r.values.flatMap((v, i) => (i === 0 ? [v] : [v, r.delta[i], r.relative[i] === null ? null : r.relative[i]! * 100])),
    ]),
  };
  const key = answerMetric(summaries);
  const same = identicalVariants(summaries);
  const base = key.get(summaries[0]);
  return (
    <div className="compare-results">
      <p className="answer" data-testid="compare-answer" data-metric={key.key}>
        <strong>{key.label}:</strong>{' '}
        {summaries.map((s, i) => {
          const v = key.get(s);
          const rel = i > 0 && v !== null && base ? ` (${v > base ? '+' : ''}${(((v - base) / base) * 100).toFixed(0)} %)` : '';
          return (
            <span key={labels[i]}>
              {i > 0 ? '; ' : ''}
              {labels[i]} {formatValue(v)} {key.unit}
              {rel}
            </span>
          );
        })}
        .
      </p>
      {same.map((s, i) =>
        s.same >= 0 ? (
          <p key={labels[i]} className="note" data-testid="compare-identical" data-variant={labels[i]}>
            {labels[i]} gives exactly the numbers {labels[s.same]} gives: {s.reason}.
          </p>
        ) : null,
      )}
      <h3>
        Difference table (Δ against {labels[0]}){' '}
        <button type="button" onClick={() => download('comparison.csv', toCsv(table), 'text/csv')}>
          CSV
        </button>
      </h3>
      <div className="table-scroll">
        <table data-testid="difference-table">
          <thead>
            <tr>
              <th scope="col">metric</th>
              {labels.map((l) => (
                <th key={l} scope="col">
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.metric.key}>
                <th scope="row">
                  {r.metric.label} {r.metric.unit && `(${r.metric.unit})`}
                </th>
                {r.values.map((v, i) => (
                  <td key={i} className={i === r.best ? 'best' : undefined}>
                    {formatValue(v)}
                    {i > 0 && r.delta[i] !== null && r.delta[i] !== 0 && (
                      <span className="delta">
                        {' '}
                        ({r.delta[i]! > 0 ? '+' : ''}
                        {formatValue(r.delta[i])}
                        {r.relative[i] !== null ? `, ${r.relative[i]! > 0 ? '+' : ''}${(r.relative[i]! * 100).toFixed(1)} %` : ''})
                      </span>
                    )}
                    {i === r.best && <span className="sr-only"> (best)</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageRuns.length > 0 ? (
        <BarChart
          title="Mean HTML and total page time per variant (cf. E-TCP Fig. 5)"
          yLabel="time (s)"
          bars={{
            categories: labels,
            series: [
              { name: 'HTML time', values: results.map((r) => r.result.summary.run.pages.meanHtmlTimeS) },
              { name: 'total time', values: results.map((r) => r.result.summary.run.pages.meanTotalTimeS) },
            ],
          }}
        />
      ) : (
        <BarChart
          title="Mean completion time per variant"
          yLabel="time (s)"
          bars={{ categories: labels, series: [{ name: 'mean completion time', values: results.map((r) => r.result.summary.run.meanCompletionTimeS) }] }}
        />
      )}
      <ConnectionPanel infos={infos} />
      <div className="multiples" style={{ gridTemplateColumns: `repeat(${Math.min(results.length, 3)}, minmax(0, 1fr))` }}>
        {derived.map((d, v) => (
          <FigureSource.Provider key={d.label} value={`Scenario ${results[v].result.summary.scenario.name} (${d.label}), seed ${results[v].result.summary.scenario.seed}; tcb-lab resultHash ${results[v].result.summary.resultHash}.`}>
            <div className="multiple" data-variant={d.label}>
              <h4>{d.label}</h4>
              {showSeq && d.ts && <TimeSequenceChart ts={d.ts} yShared={seqShared} title={`Time–sequence: ${d.label}`} {...time} />}
              {showCwnd && d.windows.length > 0 && <WindowChart windows={d.windows} yShared={cwndShared} title={`cwnd: ${d.label}`} {...time} />}
              {showCwnd &&
                Array.from({ length: groupPanels }, (_, g) =>
                  d.groups[g] ? (
                    <EnsembleChart key={g} group={d.groups[g]} flowNames={results[v].result.flows} {...time} />
                  ) : (
                    <p key={g} className="note multiple-none" data-plot-none="ensemble">
                      {g === 0 ? `${d.label}: no group window (its connections each keep their own).` : `${d.label}: no further group.`}
                    </p>
                  ),
                )}
            </div>
          </FigureSource.Provider>
        ))}
      </div>
    </div>
  );
}
