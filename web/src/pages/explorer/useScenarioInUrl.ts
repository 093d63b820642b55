// The explorer's state in the address as the user edits: after each edit (debounced) the scenario
// goes into ?s= (the versioned encoding of data/urlScenario.ts), or, when that would make too long
// an address, into a local draft named by ?draft= (data/drafts.ts). The other parameters (preset,
// mode, plots) stay. The address is replaced, not pushed, so that the history holds one entry for
// the explorer: back/forward and reload come back to the scenario as it was last edited. The
// navigation is marked as the explorer's own, so that the app does not mount a new explorer for it.
import type { Scenario } from '@tcb-lab/sim';
import { useEffect, useRef, type MutableRefObject } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { newDraftId, saveDraft } from '../../data/drafts';
import { encodeScenario, maxLinkChars } from '../../data/urlScenario';

/** Navigation state of the explorer's own address updates (App.tsx keeps the explorer mounted). */
export const explorerEdit = { explorerEdit: true } as const;
export const isExplorerEdit = (state: unknown) => !!(state as { explorerEdit?: boolean } | null)?.explorerEdit;

/**
 * Writes the scenario to the address after each edit (`edits` counts them). `written` holds the
 * ?s= or ?draft= value last written, so that loading does not read back what was just written.
 */
export function useScenarioInUrl(scenario: Scenario | null, edits: number, enabled: boolean, written: MutableRefObject<string | null>) {
  const navigate = useNavigate();
  const location = useLocation();
  const draftId = useRef<string | null>(null);
  const search = useRef(location.search);
  search.current = location.search;
  useEffect(() => {
    if (!enabled || edits === 0 || !scenario) return;
    let live = true;
    const timer = setTimeout(async () => {
      const params = new URLSearchParams(search.current);
      const encoded = await encodeScenario(scenario).catch(() => null);
      if (!live) return;
      if (encoded && encoded.length <= maxLinkChars) {
        params.set('s', encoded);
        params.delete('draft');
        written.current = encoded;
      } else {
        draftId.current ??= newDraftId();
        if (!saveDraft(draftId.current, scenario)) return;
        params.set('draft', draftId.current);
        params.delete('s');
        written.current = draftId.current;
      }
      navigate({ search: `?${params}` }, { replace: true, state: explorerEdit });
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The scenario of this edit; search and navigate are read when the timer fires.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [edits, enabled]);
}
