// Loads the explorer's scenario: the chosen preset (by itself, so the explorer need not wait for the
// whole gallery), or the scenario a link carries (data/urlScenario.ts).
import { useEffect, type Dispatch, type MutableRefObject } from 'react';
import { loadDraft } from '../../data/drafts';
import type { PaperRef } from '../../data/presets';
import { decodeScenario } from '../../data/urlScenario';
import { presetScenario } from '../../sim';
import type { ExplorerAction } from './state';

/**
 * Loads the scenario the address names: ?s= (a link's scenario) or ?draft= (this browser's draft),
 * else the preset chosen. `written` is what the explorer itself last wrote to the address
 * (useScenarioInUrl): that is the scenario already shown, not read back. With ?s= or ?draft=, a
 * preset in the address gives only its description (the link's scenario started from it).
 */
export function useScenarioLoading(presetName: string, linked: string | null, draft: string | null, written: MutableRefObject<string | null>, dispatch: Dispatch<ExplorerAction>) {
  useEffect(() => {
    if (!linked || linked === written.current) return;
    let live = true;
    decodeScenario(linked).then(
      (s) => live && dispatch({ type: 'loaded', scenario: s }),
      (e) => live && dispatch({ type: 'loadFailed', message: `The link's scenario cannot be read: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [linked, written, dispatch]);
  useEffect(() => {
    if (!draft || draft === written.current) return;
    const s = loadDraft(draft);
    if (s) dispatch({ type: 'loaded', scenario: s });
    else dispatch({ type: 'loadFailed', message: `This browser has no draft “${draft}”: a draft is kept in the browser where it was edited (save it on the server to share it).` });
  }, [draft, written, dispatch]);
  const fromAddress = !!(linked || draft);
  useEffect(() => {
    if (!presetName || presetName === '__scratch') return;
    let live = true;
    presetScenario(presetName).then(
      (s) => {
        if (!live) return;
        performance.mark('tcb:preset-loaded');
        const preset = { name: presetName, description: s.description ?? '', reference: s.reference ?? '', paper: s.paper as PaperRef | undefined };
        if (fromAddress) dispatch({ type: 'presetInfo', preset });
        else dispatch({ type: 'loaded', scenario: structuredClone(s), preset });
      },
      (e) => live && dispatch({ type: 'loadFailed', message: `Preset “${presetName}” could not be loaded: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
    // fromAddress: read when the preset changes (a link's preset is chosen with it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [presetName, dispatch]);
}
