// Drafts: a scenario too large for a link (data/urlScenario.ts's maxLinkChars), kept in this
// browser's localStorage under an id that the address carries (?draft=<id>), so that reload and
// back/forward restore it as they restore a link's scenario. Only the newest few are kept.
import type { Scenario } from '@tcb-lab/sim';

const prefix = 'tcb-lab:draft:';
/** Drafts kept at most; older ones are dropped (each may be a few hundred kB). */
export const maxDrafts = 8;

export function newDraftId(): string {
  return crypto.randomUUID().slice(0, 8);
}

/** Keeps `scenario` as draft `id`; returns false when the browser's storage refuses it (full, or off). */
export function saveDraft(id: string, scenario: Scenario, storage: Storage = localStorage): boolean {
  try {
    storage.setItem(prefix + id, JSON.stringify({ savedAt: Date.now(), scenario }));
    const drafts = Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')
      .filter((k) => k.startsWith(prefix))
      .map((k) => ({ k, at: (JSON.parse(storage.getItem(k) ?? '{}') as { savedAt?: number }).savedAt ?? 0 }))
      .sort((a, b) => b.at - a.at);
    for (const old of drafts.slice(maxDrafts)) storage.removeItem(old.k);
    return true;
  } catch {
    return false;
  }
}

/** Draft `id`, or null when this browser does not have it. */
export function loadDraft(id: string, storage: Storage = localStorage): Scenario | null {
  try {
    const text = storage.getItem(prefix + id);
    return text ? ((JSON.parse(text) as { scenario: Scenario }).scenario ?? null) : null;
  } catch {
    return null;
  }
}
