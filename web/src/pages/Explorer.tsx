// The what-if explorer: a scenario (from a preset, a saved experiment or scratch), edited in a form
// generated from the schema or as JSON, run in the browser with progress and cancel, re-run
// automatically when small; results, compare mode, batch submission, save and share (a link that
// carries a small scenario itself, or a saved experiment on the server).
// URL: ?preset=NAME, ?s=<encoded scenario> (data/urlScenario.ts) or ?draft=<id> (a scenario too
// large for a link, kept in this browser: data/drafts.ts), written as the user edits;
// &mode=compare&schemes=a,b opens compare mode and runs it; &plots=seq,cwnd chooses the plots.
// Its parts are in explorer/: the state and its reducer, loading the scenario, checking and running
// it, saving and sharing it, the scenario builder and the run panel.
import type { Scenario } from '@tcb-lab/sim';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { BatchForm } from '../components/BatchForm';
import { CompareView } from '../components/CompareView';
import { Landing } from '../components/Landing';
import { plotKinds, type PlotKind } from '../components/ResultView';
import { groupPresets } from '../data/presets';
import { schemeNames } from '../schema';
import { usePapers, usePresets, useRunner } from '../sim';
import { RunPanel } from './explorer/RunPanel';
import { ScenarioBuilder } from './explorer/ScenarioBuilder';
import { explorerReducer, type ExplorerState, type Mode } from './explorer/state';
import { useCheckAndRun } from './explorer/useCheckAndRun';
import { useSaveAndShare } from './explorer/useSaveAndShare';
import { useScenarioInUrl } from './explorer/useScenarioInUrl';
import { useScenarioLoading } from './explorer/useScenarioLoading';

export const DEFAULT_PRESET = 'etcp-fig4-fair';

export interface ExplorerInitial {
  scenario: Scenario;
  /** A saved experiment: its id, title and the resultHash stored with it. */
  saved?: { id: string; title?: string | null; resultHash?: string | null };
}

export function Explorer({ initial }: { initial?: ExplorerInitial }) {
  const location = useLocation();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const linked = params.get('s');
  const draft = params.get('draft');
  const forked = (location.state as { scenario?: Scenario; title?: string } | null) ?? null;
  const startPlots = useMemo(() => {
    const keys = (params.get('plots') ?? '').split(',').filter((k): k is PlotKind => plotKinds.some((p) => p.key === k));
    return keys.length ? keys : undefined;
  }, [params]);
  const startSchemes = useMemo(() => params.get('schemes')?.split(',').filter((x) => schemeNames.includes(x)), [params]);
  // The landing text shows on the bare address, the explorer's front door.
  const landing = !initial && !forked && !linked && !draft && !params.get('preset');

  const [state, dispatch] = useReducer(
    explorerReducer,
    null,
    (): ExplorerState => ({
      scenario: initial?.scenario ?? forked?.scenario ?? null,
      presetName: initial || forked ? '' : linked || draft ? (params.get('preset') ?? '') : (params.get('preset') ?? DEFAULT_PRESET),
      loadedPreset: null,
      loadError: null,
      mode: params.get('mode') === 'compare' ? 'compare' : 'run',
      trace: 'full',
      autoRun: true,
      title: initial?.saved?.title ?? forked?.title ?? '',
      saved: null,
      edits: 0,
    }),
  );
  const { scenario, mode } = state;
  // The address holds the scenario as it is edited (on the explorer's own route).
  const written = useRef<string | null>(null);
  useScenarioLoading(state.presetName, linked, draft, written, dispatch);
  useScenarioInUrl(scenario, state.edits, !initial && location.pathname === '/', written);
  const runner = useRunner();
  const check = useCheckAndRun({ scenario, mode, trace: state.trace, autoRun: state.autoRun, runner });
  const run = runner.state;
  const share = useSaveAndShare(scenario, run.result, state.title, dispatch);

  // The preset list and the paper catalogue wait for the first result (or for the reader to open
  // the select), so that the workers run this page's scenario first.
  const [wantPresets, setWantPresets] = useState(false);
  useEffect(() => {
    if (run.result || run.error || state.loadError) setWantPresets(true);
  }, [run.result, run.error, state.loadError]);
  const { presets, error: presetError } = usePresets(wantPresets);
  const papers = usePapers(wantPresets);
  const grouped = useMemo(() => (presets ? groupPresets(presets, papers) : null), [presets, papers]);
  const preset = presets?.find((p) => p.name === state.presetName) ?? (state.loadedPreset?.name === state.presetName ? state.loadedPreset : undefined);

  // The form (hundreds of controls) renders after the first result (plots first), or after 2 s.
  const [formReady, setFormReady] = useState(false);
  useEffect(() => {
    if (formReady) return;
    if (run.result || run.error || mode !== 'run') return setFormReady(true);
    const timer = setTimeout(() => setFormReady(true), 2000);
    return () => clearTimeout(timer);
  }, [formReady, run.result, run.error, mode]);

  const ranScenario = useMemo(() => (run.ranText ? (JSON.parse(run.ranText) as Scenario) : null), [run.ranText]);
  const upToDate = !!run.result && run.ranText === check.text;
  const { fieldError } = check;

  return (
    <div className="explorer">
      <ScenarioBuilder
        state={state}
        dispatch={dispatch}
        initial={initial}
        forked={!!forked}
        grouped={grouped}
        papers={papers}
        presetError={presetError}
        preset={preset}
        onWantPresets={() => setWantPresets(true)}
        formReady={formReady}
        fieldError={fieldError}
      />
      <main className="workspace" id="workspace" tabIndex={-1}>
        {landing && <Landing />}
        <div className="tabs" role="tablist" aria-label="Mode">
          {(['run', 'compare', 'batch'] as Mode[]).map((m) => (
            <button key={m} role="tab" type="button" aria-selected={mode === m} onClick={() => dispatch({ type: 'mode', mode: m })}>
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
          <RunPanel
            state={state}
            dispatch={dispatch}
            runner={runner}
            share={share}
            initial={initial}
            valid={check.valid}
            validating={check.validating}
            upToDate={upToDate}
            runNow={check.runNow}
            ranScenario={ranScenario}
            plots={startPlots}
          />
        )}
        {mode === 'compare' && scenario && <CompareView scenario={scenario} valid={check.valid} trace={state.trace} initialSchemes={startSchemes} autoRun={!!startSchemes} plots={startPlots} />}
        {mode === 'batch' && scenario && <BatchForm scenario={scenario} valid={check.valid} title={state.title} onScenario={(s) => dispatch({ type: 'edit', scenario: s })} />}
      </main>
    </div>
  );
}
