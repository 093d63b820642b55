// The values of a sweep as people type them: a list, a JSON array, or a range start:stop:step.
// The explorer's compare and batch forms and the reuse view read their values here.
import { jsonPathChild } from '@tcb-lab/sim';

/**
 * A range `start:stop:step` (inclusive, step > 0), or null when the text is not one. Values are
 * rounded to 12 significant digits, so that 0.1:0.5:0.1 ends at 0.5, not 0.49999999999999994.
 */
export function parseRange(text: string, maxValues: number): number[] | null {
  const number = '([-+0-9.eE]+)';
  const range = new RegExp(`^${number}\\s*:\\s*${number}\\s*:\\s*${number}$`).exec(text.trim());
  if (!range) return null;
  const [start, stop, step] = range.slice(1).map(Number);
  if (![start, stop, step].every(Number.isFinite) || !(step > 0)) throw new Error('a range is start:stop:step, numbers, with step > 0');
  const count = Math.max(0, Math.floor((stop - start) / step + 1e-9) + 1);
  if (count > maxValues) throw new Error(`a range may have at most ${maxValues} values (this one has ${count})`);
  return Array.from({ length: count }, (_, i) => Number((start + i * step).toPrecision(12)));
}

/** The most values a typed range may expand to. */
export const maxRangeValues = 10000;

/**
 * Splits at the commas that stand outside brackets, braces and strings: `{"a": 1, "b": 2}, 3`
 * is two parts.
 */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Values of a sweep from text: a JSON array (`[{"scheme": "independent"}, {"scheme": "etcp"}]`),
 * a comma-separated list (`1, 2, 4`, `reno, sack`, or JSON objects: `{"scheme": "etcp"}, {...}`),
 * or a range `start:stop:step` (inclusive). Each item is read as JSON where it is JSON (numbers,
 * literals, strings in quotes, objects, arrays), else as the text it is. A list item that opens a
 * brace or bracket and is not JSON is an error rather than a string.
 */
export function parseValues(text: string, maxValues = maxRangeValues): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const range = parseRange(trimmed, maxValues);
  if (range) return range;
  if (trimmed.startsWith('[')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not one array: a list of items, the first of them an array.
    }
  }
  return topLevelParts(trimmed).map((part) => {
    const s = part.trim();
    try {
      return JSON.parse(s) as unknown;
    } catch (e) {
      if (s.startsWith('{') || s.startsWith('[')) throw new Error(`${s} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
      return s;
    }
  });
}

/** A value as a reader reads it: strings without quotes, numbers as they are, objects as compact JSON. */
export function valueLabel(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    // A sharing configuration (or any discriminated object): its kind first, then its options.
    const entries = Object.entries(value as Record<string, unknown>);
    const [first, ...rest] = entries;
    if (first && typeof first[1] === 'string' && ['scheme', 'kind', 'type'].includes(first[0])) {
      return rest.length ? `${first[1]} (${rest.map(([k, v]) => `${k} ${valueLabel(v)}`).join(', ')})` : first[1];
    }
  }
  return JSON.stringify(value);
}

/**
 * The grid pointer an error of the planner or the service names, from its path in the batch
 * request ("$.grid['/tcp/flavor'][2]" names "/tcp/flavor"); undefined when it names none of them.
 */
export function gridPointerOf(path: string | undefined, pointers: readonly string[]): string | undefined {
  if (!path) return undefined;
  return pointers.find((p) => {
    const at = jsonPathChild('$.grid', p);
    return path === at || path.startsWith(`${at}[`);
  });
}
