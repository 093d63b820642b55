// Run mode: the run bar (run, cancel, progress, re-run on change, trace level), the save bar (title,
// save on the server, a link with the scenario), the saved resultHash checked against this run's,
// and the results.
import type { Scenario, TraceLevel } from '@tcb-lab/sim';
import type { Dispatch } from 'react';
import { Link } from 'react-router-dom';
import { ResultView, type PlotKind } from '../../components/ResultView';
import { Stale } from '../../components/Stale';
import type { useRunner } from '../../sim';
import type { ExplorerInitial } from '../Explorer';
import type { ExplorerAction, ExplorerState } from './state';
import type { useSaveAndShare } from './useSaveAndShare';

export interface RunPanelProps {
  state: ExplorerState;
  dispatch: Dispatch<ExplorerAction>;
  runner: ReturnType<typeof useRunner>;
  share: ReturnType<typeof useSaveAndShare>;
  initial?: ExplorerInitial;
  valid: boolean;
  validating: boolean;
  /** The result shown is this scenario's, as it is now. */
  upToDate: boolean;
  runNow: () => void;
  ranScenario: Scenario | null;
  plots?: PlotKind[];
}

export function RunPanel({ state, dispatch, runner, share, initial, valid, validating, upToDate, runNow, ranScenario, plots }: RunPanelProps) {
  const run = runner.state;
  const { saved } = state;
  return (
    <>
      <div className="run-bar">
        <button type="button" onClick={runNow} disabled={!valid || run.running} data-testid="run">
          Run
        </button>
        <button type="button" onClick={runner.cancel} disabled={!run.running}>
          Cancel
        </button>
        <progress max={1} value={run.fraction} aria-label="Simulation progress" data-testid="run-progress" />
        <span role="status" aria-live="polite" data-testid="run-status">
          {run.running ? `running… ${Math.round(run.fraction * 100)} %` : validating ? 'checking…' : upToDate ? 'up to date' : run.result ? 'changed since the last run' : ''}
        </span>
        <label className="inline">
          <input type="checkbox" checked={state.autoRun} onChange={(e) => dispatch({ type: 'autoRun', autoRun: e.target.checked })} /> re-run on change
        </label>
        <label className="inline">
          trace{' '}
          <select value={state.trace} onChange={(e) => dispatch({ type: 'trace', trace: e.target.value as TraceLevel })}>
            <option value="full">full (every packet)</option>
            <option value="series">series</option>
            <option value="summary">summary</option>
          </select>
        </label>
      </div>
      {run.error && (
        <p className="error" role="alert" data-testid="run-error">
          {run.error.kind === 'scenario' ? 'Invalid scenario: ' : run.error.kind === 'memory' ? 'Out of memory: ' : run.error.kind === 'cancelled' ? '' : 'The simulation failed: '}
          {run.error.message}
        </p>
      )}
      <div className="save-bar">
        <label className="inline">
          title <input type="text" value={state.title} onChange={(e) => dispatch({ type: 'title', title: e.target.value })} aria-label="Experiment title" />
        </label>
        <button type="button" onClick={share.save} disabled={!upToDate || share.saving || !share.serverOk} data-testid="save" title={share.serverOk ? 'Save and get a link' : 'The server is unreachable'}>
          {share.saving ? 'Saving…' : 'Save'}
        </button>
        {saved && (
          <span>
            Saved: <Link to={saved.url} data-testid="share-link">{window.location.origin}{saved.url}</Link>
          </span>
        )}
        {share.saveError && (
          <span className="error" role="alert">
            {share.saveError}
          </span>
        )}
        <button type="button" onClick={share.makeLink} disabled={!state.scenario || !valid} data-testid="make-link" title="A link that carries the scenario itself: no server needed">
          Link
        </button>
        {share.linkText && (
          <span className="link-out">
            <a href={share.linkText} data-testid="scenario-link">
              link with the scenario
            </a>{' '}
            <span className="hint">({share.linkText.length} characters, copied)</span>
          </span>
        )}
        {share.linkError && (
          <span className="error" role="alert">
            {share.linkError}
          </span>
        )}
      </div>
      {initial?.saved?.resultHash && run.result && upToDate && (
        <p className={run.result.summary.resultHash === initial.saved.resultHash ? 'ok' : 'error'} data-testid="hash-check">
          Saved resultHash <code>{initial.saved.resultHash}</code>{' '}
          {run.result.summary.resultHash === initial.saved.resultHash ? '— this run gives the same.' : `— this run gives ${run.result.summary.resultHash}.`}
        </p>
      )}
      {run.result && (
        <Stale stale={!upToDate && !run.running}>
          <ResultView result={run.result} scenario={ranScenario} plots={plots} />
        </Stale>
      )}
    </>
  );
}
