// Presets and experiments grouped by the paper they come from: their scenario's structured `paper`
// field ({id, section}) names an entry of the paper catalogue (sim-core/scenario/papers.json, read
// through the WASM API's listPapers). All of the grouping is here.
import type { Paper as CataloguePaper, Scenario } from '@tcb-lab/sim';

export interface Paper {
  key: string;
  /** "Authors: Title (year)". */
  title: string;
  /** How the product names it, e.g. "E-TCP", "RFC 9040". */
  short: string;
  /** What the paper showed, in one line. */
  finding: string;
  /** Its reproduction document, docs/reproduction/<docFile>, when the reproductions page finds one. */
  docFile: string;
}

/** A scenario's `paper` field. */
export type PaperRef = NonNullable<Scenario['paper']>;

export interface PresetInfo {
  name: string;
  description: string;
  reference: string;
  paper?: PaperRef;
}

export const otherPaper: Paper = {
  key: 'other',
  title: 'Other scenarios',
  short: '',
  finding: 'Benchmarks and single mechanisms.',
  docFile: '',
};

export function catalogueEntry(p: CataloguePaper): Paper {
  return {
    key: p.id,
    title: `${p.authors}: ${p.title}${p.year ? ` (${p.year})` : ''}`,
    short: p.short,
    finding: p.finding ?? '',
    docFile: `${p.id}.md`,
  };
}

/** The paper a preset or experiment comes from; otherPaper when it names none the catalogue has. */
export function paperOf(item: Pick<PresetInfo, 'paper'>, catalogue: CataloguePaper[]): Paper {
  const entry = item.paper && catalogue.find((p) => p.id === item.paper!.id);
  return entry ? catalogueEntry(entry) : otherPaper;
}

/** Where in its paper an item comes from, e.g. "E-TCP §3.4, Fig. 4"; its own reference otherwise. */
export function referenceOf(item: PresetInfo, catalogue: CataloguePaper[]): string {
  const paper = paperOf(item, catalogue);
  if (paper === otherPaper) return item.reference;
  return [paper.short, item.paper?.section].filter(Boolean).join(' ');
}

/** Items grouped by paper, in the catalogue's order (items naming no known paper last). */
export function groupPresets<P extends PresetInfo>(items: P[], catalogue: CataloguePaper[]): { paper: Paper; presets: P[] }[] {
  const groups = new Map<string, { paper: Paper; presets: P[] }>();
  for (const entry of catalogue) groups.set(entry.id, { paper: catalogueEntry(entry), presets: [] });
  groups.set(otherPaper.key, { paper: otherPaper, presets: [] });
  for (const item of items) groups.get(paperOf(item, catalogue).key)!.presets.push(item);
  return [...groups.values()].filter((g) => g.presets.length > 0);
}

/** The first sentence of a description, for one-line listings. */
export function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  // A sentence ends at . ! or ? before a space and a capital letter or an opening bracket, but not
  // after an abbreviation (Fig., e.g., et al.) or inside brackets.
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && (i + 1 === t.length || t[i + 1] === ' ')) {
      const before = t.slice(0, i).split(' ').pop() ?? '';
      if (/^(Fig|Figs|Eq|Sec|Tab|e\.g|i\.e|al|cf|vs|No)$/.test(before)) continue;
      return t.slice(0, i + 1);
    }
  }
  return t;
}

/** What a description says after its first sentence (the scenario's details), '' if nothing. */
export function afterFirstSentence(text: string): string {
  return text.trim().replace(/\s+/g, ' ').slice(firstSentence(text).length).trim();
}
