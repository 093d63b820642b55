// Reproductions: every built-in experiment (a seed paper's table or figure) grouped by paper
// (/reproduce), and one experiment (/reproduce/:experiment) run at its quick size in this browser
// (the same report, to the bit, as `tcpsim reproduce <name> --quick --json`): the paper's figure
// rebuilt with the paper's numbers beside ours, and each claim with its verdict. The full size
// needs minutes to hours of CPU: the page shows the full-size numbers of
// docs/reproduction/<paper>.md and sends the full size to the server's queue (FullSize), whose
// report opens at /r/<id> (ReproductionRunPage).
import type { ExperimentOutcome } from '@tcb-lab/sim';
import { marked } from 'marked';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api } from '../api';
import { download } from '../charts/export';
import { ReproductionReport, VerdictSummary } from '../components/ReproductionReport';
import { ServerContext } from '../components/ServerStatus';
import { firstSentence, groupPresets, paperOf, referenceOf, type Paper } from '../data/presets';
import { docSection, type DocSection } from '../data/reproduction';
import { describeRunError, loadExperiments, planExperiment, quickReports, runExperiment, useExperiments, usePapers, type ExperimentInfo } from '../sim';

// The reproduction documents, loaded when an experiment's page needs one.
const docFiles = import.meta.glob('@docs/reproduction/*.md', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

function loadDoc(paper: Paper): Promise<string> | null {
  if (!paper.docFile) return null;
  const key = Object.keys(docFiles).find((k) => k.endsWith(`/${paper.docFile}`));
  return key ? docFiles[key]() : null;
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
                  {outcome && <VerdictSummary report={outcome.report} />}
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
        <ReproductionReport
          report={outcome.report}
          size="quick"
          reasonLink={doc ? <a href="#full-size">Full-size results in docs/reproduction/{paper.docFile}</a> : undefined}
        />
      )}
      <FullSize doc={doc} paper={paper} name={name} />
    </main>
  );
}

/**
 * The full size: its runs take minutes to hours of CPU, so they go to the server's queue
 * (POST /api/reproductions), and the reproduction's page (/r/<id>) shows their progress, then the
 * report; meanwhile the page shows the full-size results the reproduction docs record (their tables
 * were written by `tcpsim reproduce <name>` at full size).
 */
function FullSize({ doc, paper, name }: { doc: DocSection | null | undefined; paper: Paper; name: string }) {
  const html = useMemo(() => (doc ? (marked.parse(doc.body, { async: false }) as string) : ''), [doc]);
  const server = useContext(ServerContext);
  const navigate = useNavigate();
  const [runs, setRuns] = useState<number | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setRuns(null);
    planExperiment(name).then(
      (plan) => live && setRuns(plan.runs),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [name]);
  const submit = async () => {
    setSubmitting(true);
    setError(null);
    try {
      const created = await api.createReproduction({ experiment: name, mode: 'full' });
      navigate(created.url);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSubmitting(false);
    }
  };
  const unreachable = server.checked && !server.ok;
  return (
    <section aria-labelledby="full-size" className="full-size">
      <h3 id="full-size">Full size</h3>
      <p className="run-bar">
        <button type="button" onClick={() => void submit()} disabled={submitting || unreachable} aria-describedby="full-size-note" data-testid="run-full">
          Run full size on the server
        </button>
        <span id="full-size-note" className="hint">
          {runs !== null ? `${runs} runs` : 'The full size’s runs'} go to the server’s queue; a page of their own shows their progress and then the report, at a link you can share.{' '}
          {unreachable ? 'The server cannot be reached; ' : ''}
          <code>tcpsim reproduce {name}</code> runs the same on your machine.
        </span>
        {error && (
          <span className="error" role="alert" data-testid="run-full-error">
            {error}
          </span>
        )}
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
