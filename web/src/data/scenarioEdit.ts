// Editing scenarios: values set at JSON Pointers (the pointer rules themselves are @tcb-lab/sim's),
// the sharing scheme of every host, sweep values and run counts.
import { parsePointer, toPointer, type Scenario } from '@tcb-lab/sim';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A copy of doc with the value at pointer replaced (parents created as objects); undefined deletes. */
export function setPointer<T>(doc: T, pointer: string, value: unknown): T {
  const tokens = parsePointer(pointer);
  if (!tokens) throw new Error(`not a JSON Pointer: ${pointer}`);
  if (tokens.length === 0) return value as T;
  const copy = (structuredClone(doc) ?? {}) as unknown as Record<string, Json>;
  let node: Record<string, Json> | Json[] = copy;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    const next = (node as Record<string, Json>)[t];
    if (next === null || typeof next !== 'object') (node as Record<string, Json>)[t] = {};
    node = (node as Record<string, Json>)[t] as Record<string, Json>;
  }
  const last = tokens[tokens.length - 1];
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else (node as Record<string, Json>)[last] = value as Json;
  return copy as unknown as T;
}

/** The sharing schemes the scenario's hosts use (independent when none is set). */
export function schemesOf(scenario: Scenario): string[] {
  const hosts = (scenario.hosts ?? {}) as Record<string, { sharing?: { scheme: string } }>;
  const schemes = Object.values(hosts)
    .map((h) => h.sharing?.scheme)
    .filter((s): s is string => !!s);
  return schemes.length ? [...new Set(schemes)] : ['independent'];
}

/**
 * The scenario with every host that names a sharing scheme switched to `scheme` (its other options
 * kept when the scheme does not change); with no host named, all hosts ("*") use it.
 */
export function withScheme(scenario: Scenario, scheme: string): Scenario {
  const hosts = structuredClone((scenario.hosts ?? {}) as Record<string, { sharing?: { scheme: string } }>);
  const named = Object.keys(hosts).filter((h) => hosts[h].sharing);
  if (named.length === 0) hosts['*'] = { ...(hosts['*'] ?? {}), sharing: { scheme } };
  for (const h of named) if (hosts[h].sharing!.scheme !== scheme) hosts[h] = { ...hosts[h], sharing: { scheme } };
  return { ...scenario, hosts } as Scenario;
}

/** Pointers to every number, string or boolean in the document (candidates for a sweep). */
export function scalarPointers(doc: unknown, base: (string | number)[] = []): string[] {
  if (doc === null || typeof doc !== 'object') return base.length ? [toPointer(base)] : [];
  const entries = Array.isArray(doc) ? doc.map((v, i) => [i, v] as const) : Object.entries(doc);
  return entries.flatMap(([k, v]) => scalarPointers(v, [...base, k]));
}

/**
 * Values of a sweep from text: a comma-separated list (`1, 2, 4`, `reno, sack`) or a range
 * `start:stop:step` (inclusive). Numbers and JSON literals are parsed; anything else is a string.
 */
export function parseValues(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const range = /^(-?[\d.e+-]+)\s*:\s*(-?[\d.e+-]+)\s*:\s*([\d.e+-]+)$/.exec(trimmed);
  if (range) {
    const [start, stop, step] = range.slice(1).map(Number);
    if (!(step > 0) || !Number.isFinite(start) || !Number.isFinite(stop)) throw new Error('a range is start:stop:step with step > 0');
    const count = Math.floor((stop - start) / step + 1e-9) + 1;
    if (count > 10000) throw new Error('a range may have at most 10000 values');
    return Array.from({ length: Math.max(0, count) }, (_, i) => Number((start + i * step).toPrecision(12)));
  }
  return trimmed.split(',').map((part) => {
    const s = part.trim();
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return s;
    }
  });
}

/** Runs of a batch: the product of the grid's value counts times the replications. */
export function runCount(grid: Record<string, unknown[]>, replications: number): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1) * replications;
}
