// Saving the scenario with its result on the server (a short /e/:id link), and a link that carries
// the scenario itself (works on a static copy of the app; large scenarios are saved instead).
import type { Scenario, SimulationResult } from '@tcb-lab/sim';
import { useContext, useState, type Dispatch } from 'react';
import { api, ApiError } from '../../api';
import { ServerContext } from '../../components/ServerStatus';
import { encodeScenario, maxLinkChars } from '../../data/urlScenario';
import type { ExplorerAction } from './state';

export function useSaveAndShare(scenario: Scenario | null, result: SimulationResult | null, title: string, dispatch: Dispatch<ExplorerAction>) {
  const server = useContext(ServerContext);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [linkText, setLinkText] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);

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
    if (!scenario || !result) return;
    setSaving(true);
    setSaveError(null);
    try {
      const r = await api.saveExperiment({ scenario, result: result.summary, ...(title ? { title } : {}) });
      dispatch({ type: 'saved', saved: r });
    } catch (e) {
      setSaveError(e instanceof ApiError ? e.message : String(e));
      if (e instanceof ApiError && e.unreachable) server.recheck();
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, saveError, makeLink, linkText, linkError, serverOk: server.ok };
}
