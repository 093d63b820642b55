// Loads the explorer's scenario: the chosen preset (by itself, so the explorer need not wait for the
// whole gallery), or the scenario a link carries (data/urlScenario.ts).
import { useEffect, type Dispatch } from 'react';
import type { PaperRef } from '../../data/presets';
import { decodeScenario } from '../../data/urlScenario';
import { presetScenario } from '../../sim';
import type { ExplorerAction } from './state';

export function useScenarioLoading(presetName: string, linked: string | null, dispatch: Dispatch<ExplorerAction>) {
  useEffect(() => {
    if (!linked) return;
    let live = true;
    decodeScenario(linked).then(
      (s) => live && dispatch({ type: 'loaded', scenario: s }),
      (e) => live && dispatch({ type: 'loadFailed', message: `The link's scenario cannot be read: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [linked, dispatch]);
  useEffect(() => {
    if (!presetName || presetName === '__scratch') return;
    let live = true;
    presetScenario(presetName).then(
      (s) => {
        if (!live) return;
        performance.mark('tcb:preset-loaded');
        const preset = { name: presetName, description: s.description ?? '', reference: s.reference ?? '', paper: s.paper as PaperRef | undefined };
        dispatch({ type: 'loaded', scenario: structuredClone(s), preset });
      },
      (e) => live && dispatch({ type: 'loadFailed', message: `Preset “${presetName}” could not be loaded: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [presetName, dispatch]);
}
