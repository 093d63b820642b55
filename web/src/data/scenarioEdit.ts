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

/**
 * Where a sweep of schemes sets the scheme: the first host that names one, or "*" (every host)
 * when none does, in which case the scenario gains hosts["*"].sharing = independent first. The
 * grid's scheme axis (sim-core/experiment/grid.h) keeps each host's options the scheme has.
 */
export function schemeAxis(scenario: Scenario): { scenario: Scenario; pointer: string } {
  const hosts = (scenario.hosts ?? {}) as Record<string, { sharing?: { scheme: string } }>;
  const named = Object.keys(hosts).find((h) => hosts[h].sharing);
  if (named) return { scenario, pointer: toPointer(['hosts', named, 'sharing', 'scheme']) };
  return { scenario: withScheme(scenario, 'independent'), pointer: '/hosts/*/sharing/scheme' };
}

/** The parameters a scheme comparison sweeps first, where the scenario has them, most telling first. */
const comparedParameters = [
  '/topology/bottleneck/bandwidthMbps',
  '/topology/link/bandwidthMbps',
  '/topology/bottleneck/delayMs',
  '/topology/link/delayMs',
  '/topology/wan/bandwidthMbps',
  '/tcp/initialWindow',
];

/** A parameter to sweep beside the schemes and three values around the scenario's own (half, as is, double). */
export function compareParameter(scenario: Scenario): { pointer: string; values: number[] } | null {
  const numbers = new Map<string, number>();
  const walk = (doc: unknown, base: (string | number)[]) => {
    if (typeof doc === 'number') numbers.set(toPointer(base), doc);
    else if (doc !== null && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) walk(v, [...base, k]);
  };
  walk(scenario, []);
  const pointer = comparedParameters.find((p) => numbers.has(p));
  if (!pointer) return null;
  const v = numbers.get(pointer)!;
  return { pointer, values: [v / 2, v, v * 2].map((x) => (Number.isInteger(v) ? Math.max(1, Math.round(x)) : Number(x.toPrecision(3)))) };
}
