// Whether a result a client submitted is the one the service computed for the same scenario, number
// for number. The client may have run at any trace level: the summary is the same at every level
// except that level "none" leaves out the per-flow, per-transfer, per-link, per-group and per-page
// arrays (sim-core/scenario/run.h, PrintedSummary), which a claim may therefore omit.
import { jsonPathChild } from '@tcb-lab/sim/json-pointer';

/** The arrays of a summary that trace level "none" leaves out. */
const trimmedAtLevelNone: ReadonlySet<string> = new Set(['flows', 'transfers', 'links', 'groups', 'pages']);

/**
 * The JSON path (from `path`) of the first place where `claim` and `computed` differ, or undefined
 * when they agree everywhere; numbers must be equal as doubles.
 */
function firstDifference(claim: unknown, computed: unknown, path: string): string | undefined {
  if (Array.isArray(claim) || Array.isArray(computed)) {
    if (!Array.isArray(claim) || !Array.isArray(computed) || claim.length !== computed.length) return path;
    for (let i = 0; i < claim.length; ++i) {
      const at = firstDifference(claim[i], computed[i], `${path}[${i}]`);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  if (claim !== null && computed !== null && typeof claim === 'object' && typeof computed === 'object') {
    const a = claim as Record<string, unknown>;
    const b = computed as Record<string, unknown>;
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (!(key in a) || !(key in b)) return jsonPathChild(path, key);
      const at = firstDifference(a[key], b[key], jsonPathChild(path, key));
      if (at !== undefined) return at;
    }
    return undefined;
  }
  return Object.is(claim, computed) || claim === computed ? undefined : path;
}

/**
 * Where a submitted summary (`claim`, at `path` in the request) differs from the service's own
 * summary of the same scenario and seed, or undefined when it agrees with every number.
 */
export function claimDifference(claim: Record<string, unknown>, computed: Record<string, unknown>, path = '$.result'): string | undefined {
  const atLevelNone = [...trimmedAtLevelNone].every((key) => !(key in claim));
  const comparable = atLevelNone ? Object.fromEntries(Object.entries(computed).filter(([key]) => !trimmedAtLevelNone.has(key))) : computed;
  return firstDifference(claim, comparable, path);
}
