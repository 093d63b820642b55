// The scenario builder beside the workspace: where the scenario starts from (a preset, scratch, a
// saved experiment), the preset's paper and finding, the sharing scheme of every host, and the
// scenario as a form generated from the schema or as JSON.
import type { Scenario } from '@tcb-lab/sim';
import { useDeferredValue, useEffect, useRef, useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router-dom';
import { SchemaForm, type FieldError } from '../../components/SchemaForm';
import { SkipLink } from '../../components/SkipLink';
import { afterFirstSentence, firstSentence, paperOf, referenceOf, type groupPresets } from '../../data/presets';
import { schemesOf, withScheme } from '../../data/scenarioEdit';
import { initialValue } from '../../data/schemaForm';
import { scenarioSchema, schemeNames } from '../../schema';
import type { ExplorerInitial } from '../Explorer';
import type { ExplorerAction, ExplorerState, LoadedPreset } from './state';

export interface ScenarioBuilderProps {
  state: ExplorerState;
  dispatch: Dispatch<ExplorerAction>;
  initial?: ExplorerInitial;
  /** A fork of another experiment (the explorer opened with a scenario in the navigation state). */
  forked: boolean;
  /** The presets grouped by paper, once listed; null until then. */
  grouped: ReturnType<typeof groupPresets> | null;
  papers: Parameters<typeof paperOf>[1];
  presetError: string | null;
  /** The chosen preset's description and paper. */
  preset: LoadedPreset | undefined;
  /** The reader reached for the preset list: list the presets now. */
  onWantPresets: () => void;
  /** The form (hundreds of controls) renders once the first result is in. */
  formReady: boolean;
  fieldError: FieldError | null;
}

export function ScenarioBuilder({ state, dispatch, initial, forked, grouped, papers, presetError, preset, onWantPresets, formReady, fieldError }: ScenarioBuilderProps) {
  const navigate = useNavigate();
  const { scenario, presetName, loadError } = state;
  const [view, setView] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  // On a narrow screen the plots come first and the form folds away.
  const [formOpen, setFormOpen] = useState(() => !window.matchMedia?.('(max-width: 760px)').matches);
  // The form renders after the urgent update, so that a new scenario is validated and run without waiting for it.
  const deferredScenario = useDeferredValue(scenario);
  const formScenario = formReady ? deferredScenario : null;
  const schemes = scenario ? schemesOf(scenario) : [];
  const edit = (s: Scenario) => dispatch({ type: 'edit', scenario: s });

  const applyJson = () => {
    try {
      const parsed = JSON.parse(jsonText) as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a scenario is a JSON object');
      setJsonError(null);
      edit(parsed as Scenario);
    } catch (e) {
      setJsonError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <aside className="builder" aria-label="Scenario builder">
      {/* The form holds hundreds of fields: from the keyboard, the run and its plots are one jump away. */}
      <SkipLink target="workspace">Skip the scenario form: to the run and its plots</SkipLink>
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
          <select id="preset" value={presetName} onChange={(e) => dispatch({ type: 'choosePreset', name: e.target.value })} onFocus={onWantPresets} onPointerDown={onWantPresets}>
            <option value="">{initial || forked ? '(this experiment)' : '—'}</option>
            <option value="__scratch">From scratch</option>
            {!grouped && presetName && presetName !== '__scratch' && <option value={presetName}>{presetName}</option>}
            {(grouped ?? []).map((g) => (
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
        {presetName === '__scratch' && <ScratchLoader onLoad={edit} />}
        {preset && (
          <div className="preset-info">
            <p className="hint">
              <strong>{paperOf(preset, papers).title}.</strong> {paperOf(preset, papers).finding}
            </p>
            <p>{firstSentence(preset.description)}</p>
            {/* The rest of the description: what the scenario shows and why (e.g. dumbbell-bulk's phase effects). */}
            {afterFirstSentence(preset.description) && (
              <details className="preset-more" data-testid="preset-more">
                <summary>More about this scenario</summary>
                <p>{afterFirstSentence(preset.description)}</p>
              </details>
            )}
            <p className="hint">{referenceOf(preset, papers)}</p>
          </div>
        )}
        {scenario && (
          <div className="field">
            <label htmlFor="scheme">Sharing scheme (every sending host)</label>
            <select id="scheme" value={schemes.length === 1 ? schemes[0] : ''} onChange={(e) => edit(withScheme(scenario, e.target.value))}>
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
        {formScenario && view === 'form' && <SchemaForm root={scenarioSchema} value={formScenario} onChange={(v) => edit(v as Scenario)} error={fieldError} />}
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
  );
}

function ScratchLoader({ onLoad }: { onLoad: (s: Scenario) => void }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    // The schema's minimum: a topology and one traffic item; the form shows what is missing.
    onLoad(initialValue(scenarioSchema, scenarioSchema) as Scenario);
  }, [onLoad]);
  return <p className="hint">A scenario with only the required fields; the form marks what still needs a value.</p>;
}
