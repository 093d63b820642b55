// The in-browser simulation: @tcb-lab/sim's Web Worker pool, presets with their descriptions, and
// a hook that runs a scenario with progress and cancellation.
import {
  createSimulator,
  getExperiment,
  getPreset,
  listExperiments,
  listPapers,
  listPresets,
  planExperiment,
  planGrid,
  runExperiment,
  runScenario,
  summarizeSamples,
  validateScenario,
  ScenarioError,
  OutOfMemoryError,
  jsonPathToPointer,
  type Experiment,
  type Paper,
  type Simulator,
  type ExperimentOutcome,
  type Scenario,
  type SimulationResult,
  type TraceLevel,
} from '@tcb-lab/sim';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PaperRef, PresetInfo } from './data/presets';
import { releaseRun } from './data/release';

export { getPreset, planExperiment, planGrid, runExperiment, runScenario, summarizeSamples, validateScenario };

let presetCache: Promise<(PresetInfo & { scenario: Scenario })[]> | undefined;
const scenarioCache = new Map<string, Promise<Scenario>>();

/** One preset's scenario, fetched once per page load; the explorer asks for its own first. */
export function presetScenario(name: string): Promise<Scenario> {
  let p = scenarioCache.get(name);
  if (!p) {
    p = getPreset(name);
    p.catch(() => scenarioCache.delete(name));
    scenarioCache.set(name, p);
  }
  return p;
}

/** Every built-in preset with its scenario (listed once per page load). */
export function loadPresets() {
  presetCache ??= listPresets().then((names) =>
    Promise.all(
      names.map(async (name) => {
        const scenario = await presetScenario(name);
        return { name, description: scenario.description ?? '', reference: scenario.reference ?? '', paper: scenario.paper as PaperRef | undefined, scenario };
      }),
    ),
  );
  presetCache.catch(() => (presetCache = undefined));
  return presetCache;
}

/**
 * Every preset, for the select and the gallery. `enabled` false defers the listing (the explorer
 * waits for its first result: the workers run its own preset first).
 */
export function usePresets(enabled = true) {
  const [presets, setPresets] = useState<(PresetInfo & { scenario: Scenario })[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    loadPresets().then(
      (p) => live && setPresets(p),
      (e) => live && setError(String(e instanceof Error ? e.message : e)),
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return { presets, error };
}

export interface RunError {
  kind: 'scenario' | 'memory' | 'simulation' | 'cancelled';
  message: string;
  pointer?: string;
}

export function describeRunError(e: unknown): RunError {
  if (e instanceof ScenarioError) return { kind: 'scenario', message: `${e.path}: ${e.problem}`, pointer: jsonPathToPointer(e.path) };
  if (e instanceof OutOfMemoryError)
    return { kind: 'memory', message: `${e.message}. Lower the trace level (series or summary) or shorten the run.` };
  if (e instanceof DOMException && e.name === 'AbortError') return { kind: 'cancelled', message: 'Run cancelled.' };
  return { kind: 'simulation', message: e instanceof Error ? e.message : String(e) };
}

export interface RunState {
  running: boolean;
  fraction: number;
  result: SimulationResult | null;
  /** Scenario text of the result shown. */
  ranText: string | null;
  error: RunError | null;
  /** Wall time from the call to the result, in ms. */
  elapsedMs: number | null;
}

/** Runs one scenario at a time; a new run cancels the one in progress. */
export function useRunner() {
  const [state, setState] = useState<RunState>({ running: false, fraction: 0, result: null, ranText: null, error: null, elapsedMs: null });
  const controller = useRef<AbortController | null>(null);
  const run = useCallback(async (scenario: Scenario, trace: TraceLevel) => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    const text = JSON.stringify(scenario);
    const started = performance.now();
    performance.mark('tcb:run-start');
    setState((s) => ({ ...s, running: true, fraction: 0, error: null }));
    try {
      const result = await runScenario(text, {
        trace,
        signal: c.signal,
        onProgress: (p) => {
          if (controller.current === c) setState((s) => ({ ...s, fraction: p.fraction }));
        },
      });
      if (controller.current !== c) return null;
      performance.mark('tcb:run-end');
      setState({ running: false, fraction: 1, result, ranText: text, error: null, elapsedMs: performance.now() - started });
      return result;
    } catch (e) {
      if (controller.current !== c) return null;
      setState((s) => ({ ...s, running: false, error: describeRunError(e) }));
      return null;
    }
  }, []);
  const cancel = useCallback(() => controller.current?.abort(), []);
  useEffect(() => () => controller.current?.abort(), []);
  // Once a new result is on screen, the one it replaced is released (data/release.ts): React would
  // otherwise keep it, and the plot columns derived from it, reachable until every component that
  // showed it renders again.
  const shown = useRef<SimulationResult | null>(null);
  useEffect(() => {
    const previous = shown.current;
    shown.current = state.result;
    // In a task of its own: freeing a large run's buffers takes tens of milliseconds.
    if (previous && previous !== state.result) setTimeout(() => releaseRun(previous), 0);
  }, [state.result]);
  return { state, run, cancel };
}

export interface ExperimentInfo {
  name: string;
  title: string;
  reference: string;
  description: string;
  paper?: PaperRef;
  document: Experiment;
}

let experimentCache: Promise<ExperimentInfo[]> | undefined;

/** Every built-in experiment with its document (listed once per page load). */
export function loadExperiments(): Promise<ExperimentInfo[]> {
  experimentCache ??= listExperiments().then((names) =>
    Promise.all(
      names.map(async (name) => {
        const document = await getExperiment(name);
        const paper = (document.scenario as { paper?: PaperRef } | undefined)?.paper;
        return { name, title: document.title ?? name, reference: document.reference ?? '', description: document.description ?? '', paper, document };
      }),
    ),
  );
  experimentCache.catch(() => (experimentCache = undefined));
  return experimentCache;
}

export function useExperiments() {
  const [experiments, setExperiments] = useState<ExperimentInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadExperiments().then(
      (e) => live && setExperiments(e),
      (e) => live && setError(String(e instanceof Error ? e.message : e)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { experiments, error };
}

/** Quick reports run in this page load, by experiment name: kept while the reader moves between pages. */
export const quickReports = new Map<string, ExperimentOutcome>();

let thumbnails: Simulator | undefined;

/**
 * A simulator of one worker for the gallery's thumbnails: they run one at a time, beside (never
 * ahead of) the explorer's runs in the shared pool.
 */
export function thumbnailSimulator(): Simulator {
  thumbnails ??= createSimulator({ maxWorkers: 1 });
  return thumbnails;
}

let paperCache: Promise<Paper[]> | undefined;

/** The paper catalogue (sim-core/scenario/papers.json), read once per page load. */
export function loadPapers(): Promise<Paper[]> {
  paperCache ??= listPapers();
  paperCache.catch(() => (paperCache = undefined));
  return paperCache;
}

/**
 * The paper catalogue; empty until it has loaded (everything then groups as "other"). `enabled`
 * false defers it (the explorer's first run goes first).
 */
export function usePapers(enabled = true): Paper[] {
  const [papers, setPapers] = useState<Paper[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    loadPapers().then(
      (p) => live && setPapers(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return papers;
}
