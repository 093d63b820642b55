// Editing scenarios: the sharing scheme of every host, and the pointers a sweep can vary.
import { toPointer, type Scenario } from '@tcb-lab/sim';

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
