// "What would reuse give my traffic?" (/reuse): a path and a workload (a download of S bytes, or a
// built-in web page) visited twice with an idle time T between the visits; the repeat visit's
// completion time against T and against S for each sharing scheme, and the loss and queueing cost
// each scheme pays or causes a neighbour. The sweep is one grid (data/reuse.ts) planned by sim-core:
// small sweeps run in this browser's workers, larger ones as a batch on the server; both give the
// same table (the runs are bit-identical and the statistics are sim-core's either way). The form's
// fields are in the link, and a server run adds its batch (?batch=<id>), so a link reopens both.
import type { Scenario } from '@tcb-lab/sim';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, ApiError, type Batch } from '../api';
import { download } from '../charts/export';
import { BarChart, SweepChart } from '../charts/StaticCharts';
import { questionLink, questions } from '../components/Landing';
import { ServerContext } from '../components/ServerStatus';
import { toCsv } from '../data/csv';
import {
  browserSegmentBudget,
  builtInPages,
  bytesLabel,
  cellsTable,
  collectCells,
  costRows,
  describePath,
  evenlySpaced,
  fieldOfPath,
  formFromQuery,
  formToQuery,
  labelled,
  linesAgainst,
  metricInfo,
  parseForm,
  reusePaths,
  reuseRequest,
  reuseTitle,
  sizeLabel,
  statsOf,
  summarizeCells,
  sweepRuns,
  sweepSegments,
  tableNumbers,
  type Cell,
  type FormErrors,
  type PathRoles,
  type ReuseAxes,
  type ReuseForm,
  type ReuseSpec,
  type RunOutcome,
  type Summarize,
} from '../data/reuse';
import { formatValue } from '../data/summary';
import { schemeNames } from '../schema';
import { describeRunError, planGrid, presetScenario, runScenario, summarizeSamples } from '../sim';
import { usePolled } from './usePolled';
import './reuse.css';

const summarize: Summarize = async (samples) => (await summarizeSamples(samples)).map(statsOf);

// The landing screen's question that opens this view: its preset in compare mode is one point of it.
const landingQuestion = questions.find((q) => q.view === '/reuse');

/** The question as asked: the spec, the path's roles and the grid's pointers. */
interface Question {
  spec: ReuseSpec;
  roles: PathRoles;
  axes: ReuseAxes;
}

interface Outcome {
  /** Which result this is, in this page's life (a new one starts the charts' choices afresh). */
  id: number;
  question: Question;
  cells: Cell[];
  source: { kind: 'browser'; elapsedMs: number } | { kind: 'server'; batch: string };
}

type Running = { kind: 'browser'; done: number; total: number } | { kind: 'server'; batch: string } | { kind: 'planning' };

const finishedBatch = (s: Batch['status']) => s === 'completed' || s === 'cancelled' || s === 'failed';

export function ReusePage() {
  const [params, setParams] = useSearchParams();
  const [form, setForm] = useState<ReuseForm>(() => formFromQuery(params));
  const batchId = params.get('batch');
  const server = useContext(ServerContext);
  const [paths, setPaths] = useState<Record<string, Scenario>>({});
  const [pathError, setPathError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const controller = useRef<AbortController | null>(null);
  const idempotency = useRef(crypto.randomUUID());
  const outcomeCount = useRef(0);

  useEffect(() => {
    let live = true;
    Promise.all(reusePaths.map(async (p) => [p.preset, await presetScenario(p.preset)] as const)).then(
      (entries) => live && setPaths(Object.fromEntries(entries)),
      (e) => live && setPathError(`The paths could not be loaded: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => () => controller.current?.abort(), []);

  const parsed = useMemo(() => parseForm(form), [form]);
  const path = paths[form.path];
  // The question the form asks (null while it has errors or the path is loading).
  const asked = useMemo((): { question: Question; request: ReturnType<typeof reuseRequest>['request'] } | { error: string } | null => {
    if (!parsed.spec || !path) return null;
    try {
      const { request, roles, axes } = reuseRequest(path, parsed.spec);
      return { question: { spec: parsed.spec, roles, axes }, request };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [parsed, path]);
  const question = asked && 'question' in asked ? asked : null;
  const fieldErrors: FormErrors = { ...(parsed.errors ?? {}), ...errors, ...(asked && 'error' in asked ? { path: asked.error } : {}) };

  const update = (patch: Partial<ReuseForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    setErrors({});
    setError(null);
    setParams(formToQuery(next), { replace: true });
  };

  // An error of the planner or the service: at its field when it has one.
  const report = useCallback((e: unknown, axes: ReuseAxes, workload: ReuseSpec['workload']) => {
    const path = e instanceof ApiError ? e.path : (e as { path?: string }).path;
    const message = e instanceof ApiError ? e.message : describeRunError(e).message;
    const field = fieldOfPath(path, axes, workload);
    if (field) setErrors({ [field]: message });
    else setError(message);
  }, []);

  const runInBrowser = async () => {
    if (!question) return;
    const { spec, roles, axes } = question.question;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setError(null);
    setErrors({});
    setRunning({ kind: 'planning' });
    const started = performance.now();
    try {
      const plan = await planGrid(question.request);
      const runs = plan.points.flatMap((p, point) => Array.from({ length: spec.replications }, (_, replication) => ({ point, params: p.params, replication, scenario: p.scenario, seed: p.seed + replication })));
      let done = 0;
      setRunning({ kind: 'browser', done, total: runs.length });
      const results: RunOutcome[] = await Promise.all(
        runs.map(async (r) => {
          const result = await runScenario(r.scenario as unknown as Scenario, { seed: r.seed, trace: 'summary', signal: c.signal });
          done++;
          if (controller.current === c) setRunning({ kind: 'browser', done, total: runs.length });
          return { point: r.point, params: r.params as RunOutcome['params'], replication: r.replication, summary: result.summary };
        }),
      );
      const cells = await summarizeCells(collectCells(spec, axes, roles, results), summarize);
      if (controller.current !== c) return;
      setOutcome({ id: ++outcomeCount.current, question: question.question, cells, source: { kind: 'browser', elapsedMs: performance.now() - started } });
      if (params.has('batch')) setParams(formToQuery(form), { replace: true });
    } catch (e) {
      if (controller.current === c) report(e, axes, spec.workload);
    } finally {
      if (controller.current === c) setRunning(null);
    }
  };

  const runOnServer = async () => {
    if (!question) return;
    const { spec, axes } = question.question;
    controller.current?.abort();
    setError(null);
    setErrors({});
    setRunning({ kind: 'planning' });
    try {
      const r = await api.createBatch({ ...question.request, title: reuseTitle(spec), trace: 'summary' }, idempotency.current);
      idempotency.current = crypto.randomUUID();
      const q = formToQuery(form);
      q.set('batch', r.id);
      setOutcome(null);
      setParams(q, { replace: true });
    } catch (e) {
      report(e, axes, spec.workload);
      if (e instanceof ApiError && e.unreachable) server.recheck();
    } finally {
      setRunning(null);
    }
  };

  const segments = parsed.spec && path ? sweepSegments(parsed.spec, ((path.tcp ?? {}) as { mssBytes?: number }).mssBytes ?? 1460) : 0;
  const small = segments <= browserSegmentBudget;
  const runs = parsed.spec ? sweepRuns(parsed.spec) : 0;
  const busy = running !== null;
  const ready = !!question && !busy;

  return (
    <main className="page reuse" data-testid="reuse">
      <h2>What would reuse give my traffic?</h2>
      <p className="reuse-intro">
        Pick a path and a workload: a client downloads a file or fetches a web page, waits an idle time, and comes back. The first visit leaves the server’s sharing scheme whatever it keeps
        (an RFC 9040 cache, Linux’s tcp_metrics, Careful Resume’s or QUIC’s saved capacity, an E-TCP ensemble); the repeat visit shows what that is worth, and what it costs in losses and
        queueing, to the visit itself and to a neighbour who makes the same visits at the same time without reuse.
        {landingQuestion && (
          <>
            {' '}
            The same question, one scenario at a time, is the preset <Link to={questionLink(landingQuestion)}>{landingQuestion.preset} in compare mode</Link>.
          </>
        )}
      </p>
      {pathError && <p className="error" role="alert">{pathError}</p>}
      <form className="reuse-form" aria-label="The question" onSubmit={(e) => e.preventDefault()}>
        <Field id="reuse-path" label="path" error={fieldErrors.path}>
          <select id="reuse-path" value={form.path} onChange={(e) => update({ path: e.target.value })} aria-invalid={!!fieldErrors.path || undefined} aria-describedby={fieldErrors.path ? 'reuse-path-about reuse-path-error' : 'reuse-path-about'}>
            {reusePaths.map((p) => (
              <option key={p.preset} value={p.preset}>
                {p.preset}
              </option>
            ))}
          </select>
          <span className="hint" id="reuse-path-about">
            {path ? describePath(path, reusePaths.find((p) => p.preset === form.path)?.label) : 'loading…'}
          </span>
        </Field>
        <fieldset className="reuse-choice">
          <legend>workload</legend>
          <label className="inline">
            <input type="radio" name="reuse-workload" checked={form.workload === 'download'} onChange={() => update({ workload: 'download' })} /> a download of S bytes
          </label>
          <label className="inline">
            <input type="radio" name="reuse-workload" checked={form.workload === 'page'} onChange={() => update({ workload: 'page' })} /> a web page
          </label>
        </fieldset>
        {form.workload === 'download' ? (
          <Field id="reuse-sizes" label="sizes S" error={fieldErrors.sizes} hint="bytes, or with k, M, G (5.3M is 5 300 000 bytes), comma-separated">
            <input id="reuse-sizes" value={form.sizes} onChange={(e) => update({ sizes: e.target.value })} aria-invalid={!!fieldErrors.sizes || undefined} aria-describedby={fieldErrors.sizes ? 'reuse-sizes-error' : undefined} />
          </Field>
        ) : (
          <>
            <fieldset className="reuse-choice" aria-describedby={fieldErrors.pages ? 'reuse-pages-error' : undefined}>
              <legend>pages (E-TCP §4’s, by size)</legend>
              {builtInPages.map((p) => (
                <label key={p.name} className="inline">
                  <input
                    type="checkbox"
                    checked={form.pages.includes(p.name)}
                    onChange={(e) => update({ pages: e.target.checked ? [...form.pages, p.name] : form.pages.filter((x) => x !== p.name) })}
                  />{' '}
                  {p.name} ({bytesLabel(p.bytes)}, {p.objects} objects)
                </label>
              ))}
              {fieldErrors.pages && (
                <p className="field-error" role="alert" id="reuse-pages-error">
                  {fieldErrors.pages}
                </p>
              )}
            </fieldset>
            <Field id="reuse-http" label="HTTP">
              <select id="reuse-http" value={form.http} onChange={(e) => update({ http: e.target.value as ReuseForm['http'] })}>
                <option value="1.1-persistent">HTTP/1.1, up to six connections per visit</option>
                <option value="2">HTTP/2, one connection per visit</option>
              </select>
            </Field>
          </>
        )}
        <Field id="reuse-idle" label="idle times T" error={fieldErrors.idle} hint="seconds from the first visit’s end to the repeat visit, comma-separated or start:stop:step">
          <input id="reuse-idle" value={form.idle} onChange={(e) => update({ idle: e.target.value })} aria-invalid={!!fieldErrors.idle || undefined} aria-describedby={fieldErrors.idle ? 'reuse-idle-error' : undefined} />
        </Field>
        <fieldset className="reuse-choice" aria-describedby={fieldErrors.schemes ? 'reuse-schemes-error' : undefined}>
          <legend>the server’s sharing scheme</legend>
          {schemeNames.map((s) => (
            <label key={s} className="inline">
              <input type="checkbox" checked={form.schemes.includes(s)} onChange={(e) => update({ schemes: e.target.checked ? [...form.schemes, s] : form.schemes.filter((x) => x !== s) })} /> {s}
            </label>
          ))}
          {fieldErrors.schemes && (
            <p className="field-error" role="alert" id="reuse-schemes-error">
              {fieldErrors.schemes}
            </p>
          )}
        </fieldset>
        <label className="inline reuse-competitor">
          <input type="checkbox" checked={form.competitor} onChange={(e) => update({ competitor: e.target.checked })} /> a competitor: a second client on the same bottleneck makes the same
          visits from another server, without reuse
        </label>
        <Field id="reuse-reps" label="replications" error={fieldErrors.replications} hint="runs per point, seeds seed … seed + n − 1; the competitor’s start differs by seed">
          <input id="reuse-reps" inputMode="numeric" value={form.replications} onChange={(e) => update({ replications: e.target.value })} aria-invalid={!!fieldErrors.replications || undefined} aria-describedby={fieldErrors.replications ? 'reuse-reps-error' : undefined} />
        </Field>
        <p className="reuse-size" data-testid="reuse-size" data-runs={runs} data-segments={segments}>
          {parsed.spec ? (
            <>
              <strong>{runs}</strong> runs, about {formatValue(segments)} data segments:{' '}
              {small ? 'small enough for this browser.' : `more than this browser takes (${formatValue(browserSegmentBudget)}), so it runs on the server.`}
            </>
          ) : (
            'Fix the fields marked above.'
          )}
        </p>
        <div className="run-bar">
          <button type="button" className="primary" disabled={!ready || (!small && !server.ok)} onClick={small ? runInBrowser : runOnServer} data-testid="reuse-run">
            {small ? 'Run in this browser' : 'Run on the server'}
          </button>
          {small && (
            <button type="button" disabled={!ready || !server.ok} onClick={runOnServer} data-testid="reuse-run-server" title={server.ok ? '' : 'The server is unreachable'}>
              Run on the server instead
            </button>
          )}
          {running?.kind === 'browser' && (
            <>
              <progress max={running.total} value={running.done} aria-label="Runs done in this browser" data-testid="reuse-progress" />
              <span role="status">
                {running.done} of {running.total} runs
              </span>
              <button type="button" onClick={() => controller.current?.abort()}>
                Cancel
              </button>
            </>
          )}
          {running?.kind === 'planning' && <span role="status">Planning the sweep…</span>}
        </div>
        {!small && !server.ok && <p className="hint">This sweep is too large for the browser and the server is unreachable: fewer sizes, idle times or replications make it small.</p>}
        {error && (
          <p className="error" role="alert" data-testid="reuse-error">
            {error}
          </p>
        )}
      </form>
      {batchId && question && !outcome && (
        <ServerSweep key={batchId} id={batchId} question={question.question} onDone={(cells) => setOutcome({ id: ++outcomeCount.current, question: question.question, cells, source: { kind: 'server', batch: batchId } })} />
      )}
      {outcome && <ReuseResults key={outcome.id} outcome={outcome} />}
    </main>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field reuse-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <span className="hint reuse-hint">{hint}</span>}
      {error && (
        <p className="field-error" role="alert" id={`${id}-error`} data-field={id}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A sweep on the server: its batch followed until done, then its runs' summaries turned into the table. */
function ServerSweep({ id, question, onDone }: { id: string; question: Question; onDone: (cells: Cell[]) => void }) {
  const { value: batch, error: pollError, setValue } = usePolled(id, () => api.getBatch(id), (b) => finishedBatch(b.status));
  const [error, setError] = useState<string | null>(null);
  const fetched = useRef(false);
  useEffect(() => {
    if (!batch || batch.status !== 'completed' || fetched.current) return;
    fetched.current = true;
    (async () => {
      const runs = await api.getBatchRuns(id);
      const failed = runs.filter((r) => r.status !== 'done' || !r.summary);
      if (failed.length) throw new Error(`${failed.length} of ${runs.length} runs failed: ${failed[0].error ?? failed[0].status}`);
      const outcomes: RunOutcome[] = runs.map((r) => ({ point: r.point, params: r.params as RunOutcome['params'], replication: r.replication, summary: r.summary! }));
      onDone(await summarizeCells(collectCells(question.spec, question.axes, question.roles, outcomes), summarize));
    })().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [batch, id, question, onDone]);

  if (pollError && !batch)
    return (
      <p className="error" role="alert" data-testid="reuse-error">
        {pollError.status === 404 ? `There is no batch with id “${id}”.` : pollError.message}
      </p>
    );
  if (!batch) return <p role="status">Loading batch {id}…</p>;
  const { counts } = batch;
  const percent = counts.total ? Math.round((100 * (counts.done + counts.failed + counts.cancelled)) / counts.total) : 0;
  return (
    <section className="run-bar" aria-label="Server batch" data-testid="reuse-batch" data-status={batch.status}>
      <progress max={100} value={percent} aria-label="Batch progress" />
      <span role="status">
        On the server: batch <Link to={`/b/${id}`}>{id}</Link>, {batch.status}, {counts.done} of {counts.total} runs done
        {counts.failed ? `, ${counts.failed} failed` : ''}
      </span>
      {!finishedBatch(batch.status) && (
        <button type="button" onClick={() => api.cancelBatch(id).then(setValue, (e: unknown) => setError(e instanceof Error ? e.message : String(e)))}>
          Cancel batch
        </button>
      )}
      {(error || batch.status === 'failed' || batch.status === 'cancelled') && (
        <p className="error" role="alert" data-testid="reuse-error">
          {error ?? `The batch ${batch.status === 'failed' ? 'failed' : 'was cancelled'}.`}
        </p>
      )}
    </section>
  );
}

function secondsLabel(v: number): string {
  return v >= 120 ? `${+(v / 60).toPrecision(3)} min (${v} s)` : `${v} s`;
}

function ReuseResults({ outcome }: { outcome: Outcome }) {
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
  const numbers = useMemo(() => JSON.stringify(tableNumbers(cells)), [cells]);
  const ci = spec.replications > 1;
  const sized = sizeLabel(spec, size);
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
  const table = cellsTable(cells, spec);
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
      <h4>
        The cost at {sized}, idle {secondsLabel(idle)}{' '}
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
        <BarChart title={`Losses per scheme (${sized}, idle ${secondsLabel(idle)})`} yLabel="packets" bars={costBars} />
      ) : (
        <p className="note" data-testid="reuse-no-losses">
          No scheme’s repeat visit {spec.competitor ? 'or competitor ' : ''}lost a packet at {sized}, idle {secondsLabel(idle)}.
        </p>
      )}
      <details className="reuse-all">
        <summary>Every point of the sweep ({cells.length})</summary>
        <p>
          <button type="button" onClick={() => download('reuse-sweep.csv', toCsv(table), 'text/csv')}>
            CSV
          </button>{' '}
          <button type="button" onClick={() => download('reuse-sweep.json', numbers, 'application/json')}>
            JSON (with each run’s resultHash)
          </button>
        </p>
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Every point of the sweep (scrolls sideways)">
          <table data-testid="reuse-cells">
            <thead>
              <tr>
                {table.columns.filter((c) => !c.endsWith('ci95 low') && !c.endsWith('ci95 high')).map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.filter((_, j) => !table.columns[j].endsWith('ci95 low') && !table.columns[j].endsWith('ci95 high')).map((v, j) => (
                    <td key={j}>{formatValue(v)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <pre hidden data-testid="reuse-numbers">
          {numbers}
        </pre>
      </details>
    </section>
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

function costTable(cost: ReturnType<typeof costRows>, spec: ReuseSpec) {
  const keys = (['completionS', 'firstS', 'retransmissions', 'dropped', 'peakQueue', 'competitorS', 'competitorDropped', 'competitorRetransmissions'] as const).filter(
    (k) => spec.competitor || !metricInfo[k].competitor,
  );
  return {
    columns: ['scheme', `against ${cost.baseline} (s)`, ...keys.flatMap((k) => [`${metricInfo[k].label} mean`, 'ci95 low', 'ci95 high'])],
    rows: cost.rows.map((r) => [r.scheme, r.gainS, ...keys.flatMap((k) => [r.cell.stats?.[k].mean ?? null, r.cell.stats?.[k].ci95?.[0] ?? null, r.cell.stats?.[k].ci95?.[1] ?? null])]),
  };
}
