// Reproductions: every built-in experiment (a seed paper's table or figure) grouped by paper
// (/reproduce), and one experiment (/reproduce/:experiment) run at its quick size in this browser
// (the same report, to the bit, as `tcpsim reproduce <name> --quick --json`): the paper's figure
// rebuilt with the paper's numbers beside ours, and each claim with its verdict. The full size
// needs hours of CPU: the page shows the full-size numbers of docs/reproduction/<paper>.md, and
// has the place where a "Run full size on the server" action goes (see FullSize).
import type { ExperimentOutcome } from '@tcb-lab/sim';
import { marked } from 'marked';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { download } from '../charts/export';
import { BarChart, SweepChart } from '../charts/StaticCharts';
import { firstSentence, groupPresets, paperOf, referenceOf, type Paper } from '../data/presets';
import { claimViews, docSection, reportFigures, verdictCounts, type ClaimView, type DocSection, type Estimate, type Figure, type Verdict } from '../data/reproduction';
import { formatValue } from '../data/summary';
import { describeRunError, loadExperiments, quickReports, runExperiment, useExperiments, usePapers, type ExperimentInfo } from '../sim';

// The reproduction documents, loaded when an experiment's page needs one.
const docFiles = import.meta.glob('@docs/reproduction/*.md', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

function loadDoc(paper: Paper): Promise<string> | null {
  if (!paper.docFile) return null;
  const key = Object.keys(docFiles).find((k) => k.endsWith(`/${paper.docFile}`));
  return key ? docFiles[key]() : null;
}

const verdictMark: Record<Verdict, string> = { agrees: '✓', differs: '✗', 'known difference': '≈', 'not checked': '–' };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span className={`verdict verdict-${verdict.replace(' ', '-')}`}>
      <span aria-hidden="true">{verdictMark[verdict]}</span> {verdict}
    </span>
  );
}

function VerdictSummary({ outcome }: { outcome: ExperimentOutcome }) {
  const counts = verdictCounts(claimViews(outcome.report));
  return (
    <span className="verdict-summary" data-testid="verdict-summary" data-differs={counts.differs}>
      {(Object.keys(counts) as Verdict[])
        .filter((v) => counts[v] > 0)
        .map((v) => (
          <span key={v} className={`verdict verdict-${v.replace(' ', '-')}`}>
            <span aria-hidden="true">{verdictMark[v]}</span> {counts[v]} {v}
          </span>
        ))}
    </span>
  );
}

/** Runs an experiment at its quick size, with progress and cancel; the outcome stays for the page load. */
function useQuickRun(name: string | undefined) {
  const [outcome, setOutcome] = useState<ExperimentOutcome | null>(() => (name ? (quickReports.get(name) ?? null) : null));
  const [progress, setProgress] = useState<{ done: number; runs: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [elapsedMs, setElapsedMs] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  const run = useCallback(async () => {
    if (!name) return;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setError(null);
    setProgress({ done: 0, runs: 0 });
    const started = performance.now();
    try {
      const out = await runExperiment(name, { quick: true, signal: c.signal, onProgress: (p) => controller.current === c && setProgress({ done: p.done, runs: p.runs }) });
      if (controller.current !== c) return;
      quickReports.set(name, out);
      setOutcome(out);
      setElapsedMs(performance.now() - started);
    } catch (e) {
      if (controller.current === c) setError(describeRunError(e).message);
    } finally {
      if (controller.current === c) setProgress(null);
    }
  }, [name]);
  useEffect(() => {
    setOutcome(name ? (quickReports.get(name) ?? null) : null);
    setElapsedMs(null);
    setError(null);
  }, [name]);
  useEffect(() => () => controller.current?.abort(), []);
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { outcome, progress, error, elapsedMs, run, cancel };
}

export function ReproducePage() {
  const { experiment } = useParams();
  return experiment ? <ExperimentReproduction name={experiment} /> : <ReproductionsOverview />;
}

function ReproductionsOverview() {
  const { experiments, error } = useExperiments();
  const [, rerender] = useState(0);
  const [running, setRunning] = useState<{ name: string; index: number; total: number } | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const stop = useRef<AbortController | null>(null);
  const papers = usePapers();
  const groups = useMemo(() => (experiments ? groupPresets(experiments, papers).map((g) => ({ paper: g.paper, experiments: g.presets })) : []), [experiments, papers]);

  const runAll = async () => {
    if (!experiments) return;
    const c = new AbortController();
    stop.current = c;
    setRunError(null);
    try {
      for (let i = 0; i < experiments.length; i++) {
        const e = experiments[i];
        if (quickReports.has(e.name)) continue;
        setRunning({ name: e.name, index: i, total: experiments.length });
        quickReports.set(e.name, await runExperiment(e.name, { quick: true, signal: c.signal }));
        rerender((n) => n + 1);
      }
    } catch (e) {
      if (!c.signal.aborted) setRunError(describeRunError(e).message);
    } finally {
      setRunning(null);
    }
  };
  useEffect(() => () => stop.current?.abort(), []);

  if (error) return <main className="page"><p className="error" role="alert">The experiments could not be loaded: {error}</p></main>;
  if (!experiments) return <main className="page"><p>Loading experiments…</p></main>;
  return (
    <main className="page reproduce" data-testid="reproductions">
      <h2>Reproductions of the seed papers</h2>
      <p>
        Every table and figure of the seed papers is an experiment: the paper’s scenario, the schemes it compared, the parameters it swept, its numbers and its claims. Each one runs here at a
        reduced (quick) size, giving the same report as <code>tcpsim reproduce &lt;name&gt; --quick</code>; the full-size results are those of <code>docs/REPRODUCTION.md</code>.
      </p>
      <div className="run-bar">
        <button type="button" onClick={runAll} disabled={!!running} data-testid="run-all">
          Run every experiment (quick) in this browser
        </button>
        {running && (
          <>
            <progress max={running.total} value={running.index} aria-label="Experiments run" />
            <span role="status">
              {running.name} ({running.index + 1} of {running.total})
            </span>
            <button type="button" onClick={() => stop.current?.abort()}>
              Stop
            </button>
          </>
        )}
        {runError && <span className="error" role="alert">{runError}</span>}
      </div>
      {groups.map((g) => (
        <section key={g.paper.key} aria-labelledby={`repro-${g.paper.key}`} data-paper={g.paper.key}>
          <h3 id={`repro-${g.paper.key}`}>{g.paper.title}</h3>
          <p className="hint">{g.paper.finding}</p>
          <ul className="experiments">
            {g.experiments.map((e) => {
              const outcome = quickReports.get(e.name);
              return (
                <li key={e.name} data-experiment={e.name}>
                  <Link to={`/reproduce/${encodeURIComponent(e.name)}`}>{e.title}</Link> <code className="hint">{e.name}</code>
                  {outcome && <VerdictSummary outcome={outcome} />}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </main>
  );
}

function ExperimentReproduction({ name }: { name: string }) {
  const [info, setInfo] = useState<ExperimentInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadExperiments().then(
      (all) => {
        if (!live) return;
        const found = all.find((e) => e.name === name);
        if (found) setInfo(found);
        else setLoadError(`There is no built-in experiment “${name}”.`);
      },
      (e) => live && setLoadError(String(e instanceof Error ? e.message : e)),
    );
    return () => {
      live = false;
    };
  }, [name]);
  const quick = useQuickRun(info?.name);
  // The quick size takes seconds at most: run it on opening.
  const { outcome, run } = quick;
  useEffect(() => {
    if (info && !outcome) void run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info]);
  const papers = usePapers();
  const paper = useMemo(() => (info ? paperOf(info, papers) : null), [info, papers]);
  const [doc, setDoc] = useState<DocSection | null | undefined>(undefined);
  useEffect(() => {
    if (!paper || !info) return;
    const claims = (info.document.claims ?? []).map((c) => c.text);
    let live = true;
    const loading = loadDoc(paper);
    if (!loading) setDoc(null);
    else loading.then((md) => live && setDoc(docSection(md, claims)), () => live && setDoc(null));
    return () => {
      live = false;
    };
  }, [paper, info]);

  if (loadError)
    return (
      <main className="page">
        <p className="error" role="alert" data-testid="experiment-error">
          {loadError} <Link to="/reproduce">All reproductions</Link>
        </p>
      </main>
    );
  if (!info || !paper) return <main className="page"><p>Loading {name}…</p></main>;
  const views = outcome ? claimViews(outcome.report) : [];
  return (
    <main className="page reproduce" data-testid="reproduction" data-experiment={name} data-runs-hash={outcome?.report.runsHash ?? ''}>
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link to="/reproduce">Reproductions</Link> › {paper.title}
      </nav>
      <h2>{info.title}</h2>
      <p className="hint">{info.reference || referenceOf(info, papers)}</p>
      <p>{firstSentence(info.description)}</p>
      {info.description !== firstSentence(info.description) && (
        <details>
          <summary>The experiment as set up</summary>
          <p>{info.description}</p>
        </details>
      )}
      <div className="run-bar">
        <button type="button" onClick={() => void quick.run()} disabled={!!quick.progress} data-testid="run-quick">
          {outcome ? 'Run quick size again' : 'Run quick size'}
        </button>
        <button type="button" onClick={quick.cancel} disabled={!quick.progress}>
          Cancel
        </button>
        <progress max={quick.progress?.runs || 1} value={quick.progress?.done ?? (outcome ? 1 : 0)} aria-label="Runs done" />
        <span role="status" aria-live="polite" data-testid="quick-status">
          {quick.progress
            ? `running… ${quick.progress.done} of ${quick.progress.runs || '…'} runs`
            : outcome
              ? `quick size: ${outcome.report.runs} runs, ${outcome.report.replications} replication${outcome.report.replications === 1 ? '' : 's'}${quick.elapsedMs !== null ? `, ${(quick.elapsedMs / 1000).toFixed(1)} s in this browser` : ''}`
              : ''}
        </span>
        {outcome && (
          <>
            <button type="button" onClick={() => download(`${name}-quick-report.json`, outcome.json, 'application/json')}>
              Report JSON
            </button>
            <button type="button" onClick={() => download(`${name}-quick-report.txt`, outcome.text, 'text/plain')}>
              Report text
            </button>
          </>
        )}
      </div>
      {quick.error && (
        <p className="error" role="alert">
          {quick.error}
        </p>
      )}
      {outcome && (
        <>
          <section aria-labelledby="claims-title">
            <h3 id="claims-title">
              The paper’s claims at the quick size <VerdictSummary outcome={outcome} />
            </h3>
            <ul className="claims" data-testid="claims">
              {views.map((v, i) => (
                <ClaimItem key={i} view={v} doc={doc ?? null} paper={paper} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="figures-title">
            <h3 id="figures-title">The figure, rebuilt (quick size; ◇ marks the paper’s numbers)</h3>
            <div className="figures">
              {reportFigures(outcome.report).map((f, i) => (
                <FigureView key={i} figure={f} />
              ))}
            </div>
          </section>
        </>
      )}
      <FullSize doc={doc} paper={paper} name={name} />
    </main>
  );
}

function ClaimItem({ view, doc, paper }: { view: ClaimView; doc: DocSection | null; paper: Paper }) {
  return (
    <li data-verdict={view.verdict}>
      <VerdictBadge verdict={view.verdict} /> {view.text} <span className="hint">({view.detail})</span>
      {view.reason && (
        <p className="reason">
          Why: {view.reason}
          {doc && (
            <>
              {' '}
              <a href="#full-size">Full-size results in docs/reproduction/{paper.docFile}</a>
            </>
          )}
        </p>
      )}
      {view.tests.length > 0 && (
        <div className="table-scroll">
          <table className="ttest">
            <caption>Unpaired t-test, reported as Savorić et al. §6 do</caption>
            <thead>
              <tr>
                <th scope="col">point</th>
                <th scope="col">difference of means</th>
                <th scope="col">level</th>
                <th scope="col">interval</th>
                <th scope="col">significant</th>
              </tr>
            </thead>
            <tbody>
              {view.tests.map((t, i) => (
                <tr key={i}>
                  <th scope="row">{t.point}</th>
                  <td>{formatValue(t.difference)}</td>
                  <td>{t.level}</td>
                  <td>
                    [{formatValue(t.interval[0])}, {formatValue(t.interval[1])}]
                  </td>
                  <td>{t.significant ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}

const withPaper = (e: Estimate) => `${formatValue(e.mean)}${e.ci ? ` ± ${formatValue(e.ci[1] - (e.mean ?? 0))}` : ''}${e.paper !== null ? ` (paper ${formatValue(e.paper)})` : ''}`;

function FigureView({ figure }: { figure: Figure }) {
  if (figure.kind === 'bars')
    return (
      <BarChart
        title={figure.title}
        yLabel={figure.yLabel}
        bars={{
          categories: figure.categories,
          series: figure.series.map((s) => ({
            name: s.name,
            values: s.values.map((e) => e.mean),
            ...(s.values.some((e) => e.ci) ? { ci: s.values.map((e) => e.ci) } : {}),
            paper: s.values.map((e) => e.paper),
          })),
        }}
      />
    );
  if (figure.kind === 'sweep')
    return (
      <SweepChart
        title={figure.title}
        xLabel={figure.xLabel}
        yLabel={figure.yLabel}
        lines={figure.lines.map((l) => ({ name: l.name, points: l.points.map((p) => ({ x: p.x, mean: p.mean, ci: p.ci, paper: p.paper })) }))}
      />
    );
  return (
    <div className="table-scroll">
      <table data-testid="report-table">
        <caption>Mean ± 95% CI half-width at the quick size (the paper’s value in brackets)</caption>
        <thead>
          <tr>
            <th scope="col">metric</th>
            {figure.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {figure.rows.map((r) => (
            <tr key={r.metric}>
              <th scope="row">{r.label}</th>
              {r.values.map((e, i) => (
                <td key={i}>{withPaper(e)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The full size. Its runs take minutes to hours of CPU, which is the server's batch queue's work:
 * until the server runs experiments, the page shows the full-size results the reproduction docs
 * record (their tables were written by `tcpsim reproduce <name>` at full size).
 */
function FullSize({ doc, paper, name }: { doc: DocSection | null | undefined; paper: Paper; name: string }) {
  const html = useMemo(() => (doc ? (marked.parse(doc.body, { async: false }) as string) : ''), [doc]);
  return (
    <section aria-labelledby="full-size" className="full-size">
      <h3 id="full-size">Full size</h3>
      <p className="run-bar">
        <button type="button" disabled aria-describedby="full-size-note" data-testid="run-full">
          Run full size on the server
        </button>
        <span id="full-size-note" className="hint">
          Full-size runs go to the server’s batch queue, which does not run experiments yet; meanwhile <code>tcpsim reproduce {name}</code> runs it on your machine.
        </span>
      </p>
      {doc === undefined && <p>Loading the full-size results…</p>}
      {doc === null && <p className="hint">The reproduction documents have no full-size section for this experiment.</p>}
      {doc && (
        <>
          <p className="hint">
            From <code>docs/reproduction/{paper.docFile}</code>, section “{doc.heading}”:
          </p>
          {/* Our own documents, from the repository at build time. */}
          <div className="doc-section" data-testid="doc-section" dangerouslySetInnerHTML={{ __html: html }} />
        </>
      )}
    </section>
  );
}
