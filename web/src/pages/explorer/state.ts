// The explorer's state, changed only through its reducer: the scenario and where it came from
// (a preset, a link, a saved experiment), the mode, the run options, and the saved copy.
import type { Scenario, TraceLevel } from '@tcb-lab/sim';
import type { PaperRef } from '../../data/presets';

export type Mode = 'run' | 'compare' | 'batch';

export interface LoadedPreset {
  name: string;
  description: string;
  reference: string;
  paper?: PaperRef;
}

export interface ExplorerState {
  scenario: Scenario | null;
  /** The preset chosen in "Start from" ('' for a link's or saved scenario, '__scratch' for scratch). */
  presetName: string;
  /** The chosen preset as loaded by itself (the explorer need not wait for the whole gallery). */
  loadedPreset: LoadedPreset | null;
  loadError: string | null;
  mode: Mode;
  trace: TraceLevel;
  autoRun: boolean;
  title: string;
  /** The experiment saved on the server for this scenario, until the scenario changes. */
  saved: { id: string; url: string } | null;
  /** How many times the user changed the scenario (each goes into the address). */
  edits: number;
}

export type ExplorerAction =
  /** The user changed the scenario (form, JSON, scheme, scratch). */
  | { type: 'edit'; scenario: Scenario }
  /** A scenario arrived from a preset or a link. */
  | { type: 'loaded'; scenario: Scenario; preset?: LoadedPreset }
  /** The chosen preset's description, for a scenario that came from elsewhere (a link based on it). */
  | { type: 'presetInfo'; preset: LoadedPreset }
  | { type: 'loadFailed'; message: string }
  | { type: 'choosePreset'; name: string }
  | { type: 'mode'; mode: Mode }
  | { type: 'trace'; trace: TraceLevel }
  | { type: 'autoRun'; autoRun: boolean }
  | { type: 'title'; title: string }
  | { type: 'saved'; saved: { id: string; url: string } };

export function explorerReducer(state: ExplorerState, action: ExplorerAction): ExplorerState {
  switch (action.type) {
    case 'edit':
      return { ...state, scenario: action.scenario, saved: null, edits: state.edits + 1 };
    case 'loaded':
      return { ...state, scenario: action.scenario, saved: null, loadError: null, loadedPreset: action.preset ?? state.loadedPreset };
    case 'presetInfo':
      return { ...state, loadedPreset: action.preset };
    case 'loadFailed':
      return { ...state, loadError: action.message };
    case 'choosePreset':
      return { ...state, presetName: action.name };
    case 'mode':
      return { ...state, mode: action.mode };
    case 'trace':
      return { ...state, trace: action.trace };
    case 'autoRun':
      return { ...state, autoRun: action.autoRun };
    case 'title':
      return { ...state, title: action.title };
    case 'saved':
      return { ...state, saved: action.saved };
  }
}
