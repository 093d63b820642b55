// Drafts of scenarios too large for a link: kept by id, the newest few only, and missing ones
// reported as missing.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '@tcb-lab/sim';
import { loadDraft, maxDrafts, saveDraft } from '../src/data/drafts';

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(k: string) {
    return this.#items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.#items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.#items.delete(k);
  }
  setItem(k: string, v: string) {
    this.#items.set(k, v);
  }
}

describe('drafts', () => {
  it('keeps a scenario by id and gives it back', () => {
    const storage = new MemoryStorage();
    const scenario = { schemaVersion: 1, seed: 7 } as unknown as Scenario;
    expect(saveDraft('a', scenario, storage)).toBe(true);
    expect(loadDraft('a', storage)).toEqual(scenario);
    expect(loadDraft('missing', storage)).toBeNull();
  });
  it('keeps only the newest drafts', async () => {
    const storage = new MemoryStorage();
    storage.setItem('other', 'kept');
    for (let i = 0; i < maxDrafts + 3; i++) {
      saveDraft(`d${i}`, { schemaVersion: 1, seed: i } as unknown as Scenario, storage);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(storage.length).toBe(maxDrafts + 1);
    expect(loadDraft('d0', storage)).toBeNull();
    expect(loadDraft('d2', storage)).toBeNull();
    expect(loadDraft(`d${maxDrafts + 2}`, storage)).not.toBeNull();
    expect(storage.getItem('other')).toBe('kept');
  });
});
