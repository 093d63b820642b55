// The what-if explorer: a scenario (from a preset, a saved experiment or scratch), edited in a form
// generated from the schema or as JSON, run in the browser with progress and cancel, re-run
// automatically when small; results, compare mode, batch submission, save and share (a link that
// carries a small scenario itself, or a saved experiment on the server).
// URL: ?preset=NAME or ?s=<encoded scenario> (data/urlScenario.ts); &mode=compare&schemes=a,b
// opens compare mode and runs it; &plots=seq,cwnd chooses the plots.
import { jsonPathToPointer, type Scenario, type TraceLevel } from '@tcb-lab/sim';
import { useCallback, useContext, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { api, ApiError } from '../api';
import { BatchForm } from '../components/BatchForm';
import { CompareView } from '../components/CompareView';
import { Landing } from '../components/Landing';
import { plotKinds, ResultView, type PlotKind } from '../components/ResultView';
import { SchemaForm, type FieldError } from '../components/SchemaForm';
import { ServerContext } from '../components/ServerStatus';
import { firstSentence, groupPresets, paperOf, referenceOf, type PaperRef } from '../data/presets';
import { schemesOf, withScheme } from '../data/scenarioEdit';
import { initialValue } from '../data/schemaForm';
import { scenarioSchema, schemeNames } from '../schema';
import { decodeScenario, encodeScenario, maxLinkChars } from '../data/urlScenario';
import { presetScenario, usePapers, usePresets, useRunner, validateScenario } from '../sim';

export const DEFAULT_PRESET = 'etcp-fig4-fair';

export interface ExplorerInitial {
  scenario: Scenario;
  /** A saved experiment: its id, title and the resultHash stored with it. */
  saved?: { id: string; title?: string | null; resultHash?: string | null };
}

type Mode = 'run' | 'compare' | 'batch';

export function Explorer({ initial }: { initial?: ExplorerInitial }) {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const linked = params.get('s');
  const forked = (location.state as { scenario?: Scenario; title?: string } | null) ?? null;
  const startPlots = useMemo(() => {
    const keys = (params.get('plots') ?? '').split(',').filter((k): k is PlotKind => plotKinds.some((p) => p.key === k));
    return keys.length ? keys : undefined;
  }, [params]);
  const startSchemes = useMemo(() => params.get('schemes')?.split(',').filter((x) => schemeNames.includes(x)), [params]);
  // The preset list waits for the first result (or for the reader to open the select), so that the
  // workers run this page's scenario first.
  const [wantPresets, setWantPresets] = useState(false);
  const { presets, error: presetError } = usePresets(wantPresets);
  const server = useContext(ServerContext);
  const [scenario, setScenarioState] = useState<Scenario | null>(initial?.scenario ?? forked?.scenario ?? null);
  const [presetName, setPresetName] = useState<string>(initial || forked || linked ? '' : (params.get('preset') ?? DEFAULT_PRESET));
  // The landing text shows on the bare address, the explorer's front door.
  const landing = !initial && !forked && !linked && !params.get('preset');
  const [view, setView] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<FieldError | null>(null);
  const [validating, setValidating] = useState(false);
  const [trace, setTrace] = useState<TraceLevel>('full');
  const [autoRun, setAutoRun] = useState(true);
  const [mode, setMode] = useState<Mode>(params.get('mode') === 'compare' ? 'compare' : 'run');
  const [title, setTitle] = useState(initial?.saved?.title ?? forked?.title ?? '');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<{ id: string; url: string } | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [linkText, setLinkText] = useState<string | null>(null);
  // On a narrow screen the plots come first and the form folds away.
  const [formOpen, setFormOpen] = useState(() => !window.matchMedia?.('(max-width: 760px)').matches);
  const [linkError, setLinkError] = useState<string | null>(null);
  const { state, run, cancel } = useRunner();
  const edits = useRef(0);

  const setScenario = useCallback((s: Scenario) => {
    edits.current++;
    setSaved(null);
    setScenarioState(s);
  }, []);

  // Load the chosen preset (by itself: the explorer need not wait for the whole gallery).
  const [loadError, setLoadError] = useState<string | null>(null);
  // Or the scenario the link carries.
  useEffect(() => {
    if (!linked) return;
    let live = true;
    decodeScenario(linked).then(
      (s) => {
        if (!live) return;
        edits.current++;
        setScenarioState(s);
      },
      (e) => live && setLoadError(`The link's scenario cannot be read: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [linked]);
  useEffect(() => {
    if (!presetName || presetName === '__scratch') return;
    let live = true;
    presetScenario(presetName).then(
      (s) => {
        if (!live) return;
        edits.current++;
        setSaved(null);
        setLoadError(null);
        performance.mark('tcb:preset-loaded');
        setLoadedPreset({ name: presetName, description: s.description ?? '', reference: s.reference ?? '', paper: s.paper as PaperRef | undefined });
        setScenarioState(structuredClone(s));
      },
      (e) => live && setLoadError(`Preset “${presetName}” could not be loaded: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [presetName]);

  // Validate with the simulator's own validator (debounced); the error goes to its field. The first
  // scenario is checked by its own run, which validates as validation does: validating it beside
  // the run would start a second worker while the first plot is on its way. Should that run fail,
  // the scenario is validated then, and the error goes to its field.
  const text = useMemo(() => (scenario ? JSON.stringify(scenario) : ''), [scenario]);
  const [validText, setValidText] = useState<string | null>(null);
  const validatedOnce = useRef(false);
  const firstRunText = useRef<string | null>(null);
  const [firstRunSettled, setFirstRunSettled] = useState(false);
  useEffect(() => {
    if (!text) return;
    // firstRun (below) is still true when the first scenario arrives: its run starts after this.
    const checkedByFirstRun = mode === 'run' && (firstRun.current || text === firstRunText.current);
    if (checkedByFirstRun && (!firstRunSettled || validText === text)) {
      setValidating(false);
      return;
    }
    setValidating(true);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const v = await validateScenario(text);
        if (!live) return;
        if (v.valid) {
          performance.mark('tcb:validated');
          setFieldError(null);
          setValidText(text);
        } else {
          setFieldError({ pointer: jsonPathToPointer(v.error.path), problem: v.error.problem });
          setValidText(null);
        }
      } catch (e) {
        if (live) setFieldError({ pointer: '', problem: String(e) });
      } finally {
        if (live) setValidating(false);
      }
    }, validatedOnce.current ? 200 : 0);
    validatedOnce.current = true;
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // validText and mode: read only for the first scenario, once its run has settled.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, firstRunSettled]);
  const valid = validText === text && !!text;

  // Run: the first scenario at once, beside its validation (the run checks it too and reports the
  // same error), then debounced on valid edits while runs are quick. A scenario and trace level
  // already run (or running) are not run again.
  const firstRun = useRef(true);
  const requested = useRef('');
  const lastWall = state.elapsedMs ?? 0;
  useEffect(() => {
    if (!scenario || mode !== 'run' || !firstRun.current) return;
    firstRun.current = false;
    requested.current = `${trace} ${text}`;
    firstRunText.current = text;
    void run(scenario, trace).then((result) => {
      if (result) {
        setFieldError(null);
        setValidText(text);
      }
      setFirstRunSettled(true);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, mode]);
  useEffect(() => {
    if (!valid || !scenario || mode !== 'run' || firstRun.current) return;
    if (!autoRun || lastWall > 2000 || requested.current === `${trace} ${text}`) return;
    const timer = setTimeout(() => {
      requested.current = `${trace} ${text}`;
      void run(scenario, trace);
    }, 350);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valid, text, trace, autoRun, mode]);

  // The form (hundreds of controls) renders after the urgent update, so that a new scenario is
  // validated and run without waiting for it; on opening, after the first result (plots first).
  const [formReady, setFormReady] = useState(false);
  useEffect(() => {
    if (formReady) return;
    if (state.result || state.error || mode !== 'run') return setFormReady(true);
    const timer = setTimeout(() => setFormReady(true), 2000);
    return () => clearTimeout(timer);
  }, [formReady, state.result, state.error, mode]);
  const deferredScenario = useDeferredValue(scenario);
  const formScenario = formReady ? deferredScenario : null;
  // The paper catalogue, like the preset list, waits for the first result.
  const papers = usePapers(wantPresets);
  const grouped = useMemo(() => (presets ? groupPresets(presets, papers) : []), [presets, papers]);
  const ranScenario = useMemo(() => (state.ranText ? (JSON.parse(state.ranText) as Scenario) : null), [state.ranText]);
  useEffect(() => {
    if (state.result || state.error || loadError) setWantPresets(true);
  }, [state.result, state.error, loadError]);
  const [loadedPreset, setLoadedPreset] = useState<{ name: string; description: string; reference: string; paper?: PaperRef } | null>(null);
  const preset = presets?.find((p) => p.name === presetName) ?? (loadedPreset?.name === presetName ? loadedPreset : undefined);
  const schemes = scenario ? schemesOf(scenario) : [];
  const upToDate = !!state.result && state.ranText === text;

  // A link that carries the scenario itself (works on a static copy of the app); large scenarios
  // are saved on the server instead.
  const makeLink = async () => {
    if (!scenario) return;
    setLinkError(null);
    try {
      const text = await encodeScenario(scenario);
      const url = `${window.location.origin}${window.location.pathname}?s=${text}`;
      if (text.length > maxLinkChars) {
        setLinkText(null);
        setLinkError(`This scenario makes a ${text.length}-character link; save it on the server for a short one.`);
        return;
      }
      setLinkText(url);
      await navigator.clipboard?.writeText(url).catch(() => undefined);
    } catch (e) {
      setLinkError(e instanceof Error ? e.message : String(e));
    }
  };

  const save = async () => {
    if (!scenario || !state.result) return;
    setSaving(true);
    setSaveError(null);
    try {
      const r = await api.saveExperiment({ scenario, result: state.result.summary, ...(title ? { title } : {}) });
      setSaved(r);
    } catch (e) {
      setSaveError(e instanceof ApiError ? e.message : String(e));
      if (e instanceof ApiError && e.unreachable) server.recheck();
    } finally {
      setSaving(false);
    }
  };

  const applyJson = () => {
    try {
      const parsed = JSON.parse(jsonText) as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a scenario is a JSON object');
      setJsonError(null);
      setScenario(parsed as Scenario);
    } catch (e) {
      setJsonError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <div className="explorer">
      <aside className="builder" aria-label="Scenario builder">
        {/* The form holds hundreds of fields: from the keyboard, the run and its plots are one jump away. */}
        <a className="skip" href="#workspace">
          Skip the scenario form: to the run and its plots
        </a>
        <details
          className="builder-fold"
          open={formOpen}
          // The form's own sections are details too; their toggles reach this handler.
          onToggle={(e) => e.target === e.currentTarget && setFormOpen(e.currentTarget.open)}
        >
        <summary>
          <h2>Scenario{scenario?.name ? <span className="hint"> {scenario.name}</span> : null}</h2>
        </summary>
        {initial?.saved && (
          <p className="note">
            Saved experiment <code>{initial.saved.id}</code>
            {initial.saved.title ? `: ${initial.saved.title}` : ''}.{' '}
            <button type="button" onClick={() => navigate('/', { state: { scenario, title: `Fork of ${initial.saved?.title || initial.saved?.id}` } })}>
              Fork
            </button>
          </p>
        )}
        <div className="field">
          <label htmlFor="preset">Start from</label>
          <select id="preset" value={presetName} onChange={(e) => setPresetName(e.target.value)} onFocus={() => setWantPresets(true)} onPointerDown={() => setWantPresets(true)}>
            <option value="">{initial || forked ? '(this experiment)' : '—'}</option>
            <option value="__scratch">From scratch</option>
            {!presets && presetName && presetName !== '__scratch' && <option value={presetName}>{presetName}</option>}
            {grouped.map((g) => (
              <optgroup key={g.paper.key} label={g.paper.title}>
                {g.presets.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {presetError && <p className="error" role="alert">Presets could not be loaded: {presetError}</p>}
        {loadError && <p className="error" role="alert">{loadError}</p>}
        {presetName === '__scratch' && <ScratchLoader onLoad={setScenario} />}
        {preset && (
          <div className="preset-info">
            <p className="hint">
              <strong>{paperOf(preset, papers).title}.</strong> {paperOf(preset, papers).finding}
            </p>
            <p>{firstSentence(preset.description)}</p>
            <p className="hint">{referenceOf(preset, papers)}</p>
          </div>
        )}
        {scenario && (
          <div className="field">
            <label htmlFor="scheme">Sharing scheme (every sending host)</label>
            <select id="scheme" value={schemes.length === 1 ? schemes[0] : ''} onChange={(e) => setScenario(withScheme(scenario, e.target.value))}>
              {schemes.length !== 1 && <option value="">(mixed: {schemes.join(', ')})</option>}
              {schemeNames.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="tabs" role="tablist" aria-label="Scenario view">
          <button role="tab" aria-selected={view === 'form'} type="button" onClick={() => setView('form')}>
            Form
          </button>
          <button
            role="tab"
            aria-selected={view === 'json'}
            type="button"
            onClick={() => {
              setJsonText(JSON.stringify(scenario, null, 2));
              setJsonError(null);
              setView('json');
            }}
          >
            JSON
          </button>
        </div>
        {formScenario && view === 'form' && (
          <SchemaForm root={scenarioSchema} value={formScenario} onChange={(v) => setScenario(v as Scenario)} error={fieldError} />
        )}
        {scenario && view === 'json' && (
          <div className="json-view">
            <label htmlFor="json">Scenario JSON</label>
            <textarea id="json" spellCheck={false} value={jsonText} onChange={(e) => setJsonText(e.target.value)} rows={30} />
            <button type="button" onClick={applyJson}>
              Apply JSON
            </button>
            {jsonError && (
              <p className="field-error" role="alert">
                {jsonError}
              </p>
            )}
            {fieldError && (
              <p className="field-error" role="alert">
                {fieldError.pointer || '/'}: {fieldError.problem}
              </p>
            )}
          </div>
        )}
        </details>
      </aside>

      <main className="workspace" id="workspace" tabIndex={-1}>
        {landing && <Landing />}
        <div className="tabs" role="tablist" aria-label="Mode">
          {(['run', 'compare', 'batch'] as Mode[]).map((m) => (
            <button key={m} role="tab" type="button" aria-selected={mode === m} onClick={() => setMode(m)}>
              {m === 'run' ? 'Run' : m === 'compare' ? 'Compare' : 'Batch'}
            </button>
          ))}
        </div>
        {fieldError && (
          <p className="error" role="alert" data-testid="scenario-invalid">
            The scenario is invalid at <code>{fieldError.pointer || '/'}</code>: {fieldError.problem}. Nothing runs or is sent until it is fixed.
          </p>
        )}
        {mode === 'run' && (
          <>
            <div className="run-bar">
              <button
                type="button"
                onClick={() => {
                  if (!scenario) return;
                  requested.current = `${trace} ${text}`;
                  void run(scenario, trace);
                }}
                disabled={!valid || state.running}
                data-testid="run"
              >
                Run
              </button>
              <button type="button" onClick={cancel} disabled={!state.running}>
                Cancel
              </button>
              <progress max={1} value={state.fraction} aria-label="Simulation progress" data-testid="run-progress" />
              <span role="status" aria-live="polite" data-testid="run-status">
                {state.running ? `running… ${Math.round(state.fraction * 100)} %` : validating ? 'checking…' : upToDate ? 'up to date' : state.result ? 'changed since the last run' : ''}
              </span>
              <label className="inline">
                <input type="checkbox" checked={autoRun} onChange={(e) => setAutoRun(e.target.checked)} /> re-run on change
              </label>
              <label className="inline">
                trace{' '}
                <select value={trace} onChange={(e) => setTrace(e.target.value as TraceLevel)}>
                  <option value="full">full (every packet)</option>
                  <option value="series">series</option>
                  <option value="summary">summary</option>
                </select>
              </label>
            </div>
            {state.error && (
              <p className="error" role="alert" data-testid="run-error">
                {state.error.kind === 'scenario' ? 'Invalid scenario: ' : state.error.kind === 'memory' ? 'Out of memory: ' : state.error.kind === 'cancelled' ? '' : 'The simulation failed: '}
                {state.error.message}
              </p>
            )}
            <div className="save-bar">
              <label className="inline">
                title <input type="text" value={title} onChange={(e) => setTitle(e.target.value)} aria-label="Experiment title" />
              </label>
              <button type="button" onClick={save} disabled={!upToDate || saving || !server.ok} data-testid="save" title={server.ok ? 'Save and get a link' : 'The server is unreachable'}>
                {saving ? 'Saving…' : 'Save'}
              </button>
              {saved && (
                <span>
                  Saved: <Link to={saved.url} data-testid="share-link">{window.location.origin}{saved.url}</Link>
                </span>
              )}
              {saveError && (
                <span className="error" role="alert">
                  {saveError}
                </span>
              )}
              <button type="button" onClick={makeLink} disabled={!scenario || !valid} data-testid="make-link" title="A link that carries the scenario itself: no server needed">
                Link
              </button>
              {linkText && (
                <span className="link-out">
                  <a href={linkText} data-testid="scenario-link">
                    link with the scenario
                  </a>{' '}
                  <span className="hint">({linkText.length} characters, copied)</span>
                </span>
              )}
              {linkError && (
                <span className="error" role="alert">
                  {linkError}
                </span>
              )}
            </div>
            {initial?.saved?.resultHash && state.result && upToDate && (
              <p className={state.result.summary.resultHash === initial.saved.resultHash ? 'ok' : 'error'} data-testid="hash-check">
                Saved resultHash <code>{initial.saved.resultHash}</code>{' '}
                {state.result.summary.resultHash === initial.saved.resultHash ? '— this run gives the same.' : `— this run gives ${state.result.summary.resultHash}.`}
              </p>
            )}
            {state.result && <ResultView result={state.result} scenario={ranScenario} plots={startPlots} />}
          </>
        )}
        {mode === 'compare' && scenario && <CompareView scenario={scenario} valid={valid} trace={trace} initialSchemes={startSchemes} autoRun={!!startSchemes} plots={startPlots} />}
        {mode === 'batch' && scenario && <BatchForm scenario={scenario} valid={valid} title={title} />}
      </main>
    </div>
  );
}

function ScratchLoader({ onLoad }: { onLoad: (s: Scenario) => void }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const s = initialValue(scenarioSchema, scenarioSchema) as Record<string, unknown>;
    // The schema's minimum: a topology and one traffic item; the form shows what is missing.
    onLoad(s as unknown as Scenario);
  }, [onLoad]);
  return <p className="hint">A scenario with only the required fields; the form marks what still needs a value.</p>;
}
