// The reuse view's form: what the user types (sizes with k, M, G; idle times as a list or a
// range; the schemes; the replications), checked field by field into a ReuseSpec, and kept in the
// link's query.
import { parseRange } from '../sweepValues';

/**
 * The paths the view offers: path presets (sim-core/scenario/presets/path-*.json) and scenarios
 * whose topology is a useful path. One line adds a path; the label is derived from the topology
 * when not given. The view uses the preset's topology, TCP options and seed, not its traffic.
 */
export const reusePaths: { preset: string; label?: string }[] = [
  { preset: 'path-geo-satellite' },
  { preset: 'path-mobile' },
  { preset: 'path-intercontinental' },
  { preset: 'scheme-independent', label: 'the scheme presets’ dumbbell' },
  { preset: 'modern-bulk-cubic', label: 'a 100 Mb/s data-centre dumbbell with CUBIC' },
];

/** The schemes the question compares by default: today's reuse beside RFC 9040 and E-TCP. */
export const reuseSchemes = ['independent', 'rfc9040-temporal', 'linux-tcp-metrics', 'careful-resume', 'bdp-resume', 'etcp'];

// The built-in pages (sim-core/scenario/pages), read at build time: the page workload's sizes.
const pageFiles = import.meta.glob('@pages/*.json', { eager: true, import: 'default' }) as Record<string, { name: string; objects: { bytes: number }[] }>;

export interface BuiltInPage {
  name: string;
  bytes: number;
  objects: number;
}

/** Every built-in page with its size, smallest first. */
export const builtInPages: BuiltInPage[] = Object.values(pageFiles)
  .map((p) => ({ name: p.name, bytes: p.objects.reduce((n, o) => n + o.bytes, 0), objects: p.objects.length }))
  .sort((a, b) => a.bytes - b.bytes || a.name.localeCompare(b.name));

export type Workload = 'download' | 'page';
export type PageHttp = '2' | '1.1-persistent';

/** The form as the user typed it (strings where the user types). */
export interface ReuseForm {
  path: string;
  workload: Workload;
  /** Download sizes: "100k, 1M, 5.3M" (decimal prefixes) or bytes. */
  sizes: string;
  /** Page workload: the built-in pages visited. */
  pages: string[];
  http: PageHttp;
  /** Idle times between the visits, in seconds: "1, 10, 60" or a range start:stop:step. */
  idle: string;
  schemes: string[];
  /** A neighbour makes the same visits at the same moments from another server, without reuse. */
  competitor: boolean;
  replications: string;
}

export const defaultForm: ReuseForm = {
  path: 'path-geo-satellite',
  workload: 'download',
  sizes: '100k, 1M, 5.3M',
  pages: ['etcp-text', 'etcp-java'],
  http: '1.1-persistent',
  idle: '1, 10, 60, 600',
  schemes: reuseSchemes,
  competitor: true,
  replications: '1',
};

/** What the form asks, checked. */
export interface ReuseSpec {
  path: string;
  workload: Workload;
  /** Download sizes in bytes, or page names; in the order given. */
  sizes: number[] | string[];
  http: PageHttp;
  idle: number[];
  schemes: string[];
  competitor: boolean;
  replications: number;
}

export type FormErrors = Partial<Record<keyof ReuseForm, string>>;

export const maxValuesPerAxis = 12;
export const maxReplications = 100;

const prefixes: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9 };

/** One download size: bytes, or a number with k, M or G (decimal: 5.3M is 5 300 000 bytes). */
export function parseSize(text: string): number {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*([kmg]?)\s*b?$/i.exec(text.trim());
  if (!m) throw new Error(`“${text.trim()}” is not a size (bytes, or a number with k, M or G)`);
  const bytes = Math.round(Number(m[1]) * prefixes[m[2].toLowerCase()]);
  if (!(bytes >= 1)) throw new Error(`a size must be at least 1 byte (got ${text.trim()})`);
  if (bytes > 1e9) throw new Error(`a size may be at most 1 G (1 000 000 000 bytes; got ${text.trim()})`);
  return bytes;
}

/** Idle times in seconds: a comma-separated list, or start:stop:step (inclusive). */
export function parseIdle(text: string): number[] {
  const t = text.trim();
  if (t === '') throw new Error('give at least one idle time');
  const values =
    parseRange(t, maxValuesPerAxis) ??
    t.split(',').map((part) => {
      const s = part.trim();
      const v = Number(s);
      if (s === '' || !Number.isFinite(v)) throw new Error(`“${s}” is not a number of seconds`);
      return v;
    });
  for (const v of values) {
    if (v < 0) throw new Error(`an idle time cannot be negative (got ${v} s)`);
    if (v > 1e6) throw new Error(`an idle time may be at most 1 000 000 s (got ${v} s)`);
  }
  return values;
}

function checkAxis<T>(values: T[], what: string): T[] {
  if (values.length === 0) throw new Error(`give at least one ${what}`);
  if (values.length > maxValuesPerAxis) throw new Error(`at most ${maxValuesPerAxis} ${what}s (got ${values.length})`);
  const seen = new Set<string>();
  for (const v of values) {
    const key = JSON.stringify(v);
    if (seen.has(key)) throw new Error(`${v} is given twice`);
    seen.add(key);
  }
  return values;
}

/** The form checked field by field: the spec, or a message per field that is wrong. */
export function parseForm(form: ReuseForm, knownPaths: string[] = reusePaths.map((p) => p.preset)): { spec: ReuseSpec; errors: null } | { spec: null; errors: FormErrors } {
  const errors: FormErrors = {};
  const attempt = <T>(field: keyof ReuseForm, f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      errors[field] = e instanceof Error ? e.message : String(e);
      return undefined;
    }
  };
  if (!knownPaths.includes(form.path)) errors.path = `choose one of the paths (${knownPaths.join(', ')})`;
  const sizes =
    form.workload === 'download'
      ? attempt('sizes', () => checkAxis(form.sizes.split(',').filter((s) => s.trim() !== '').map(parseSize), 'size'))
      : attempt('pages', () => {
          const known = builtInPages.map((p) => p.name);
          for (const p of form.pages) if (!known.includes(p)) throw new Error(`unknown page “${p}”`);
          return checkAxis(builtInPages.filter((p) => form.pages.includes(p.name)).map((p) => p.name), 'page');
        });
  const idle = attempt('idle', () => checkAxis(parseIdle(form.idle), 'idle time'));
  const schemes = attempt('schemes', () => checkAxis([...form.schemes], 'scheme'));
  const replications = attempt('replications', () => {
    const r = Number(form.replications.trim());
    if (!Number.isInteger(r) || r < 1 || r > maxReplications) throw new Error(`replications must be an integer from 1 to ${maxReplications}`);
    return r;
  });
  if (Object.keys(errors).length) return { spec: null, errors };
  return {
    spec: { path: form.path, workload: form.workload, sizes: sizes!, http: form.http, idle: idle!, schemes: schemes!, competitor: form.competitor, replications: replications! },
    errors: null,
  };
}

/** The form's fields as URL parameters (a link reopens the same question), and back. */
export function formToQuery(form: ReuseForm): URLSearchParams {
  const q = new URLSearchParams();
  q.set('path', form.path);
  q.set('workload', form.workload);
  if (form.workload === 'download') q.set('sizes', form.sizes);
  else {
    q.set('pages', form.pages.join(','));
    q.set('http', form.http);
  }
  q.set('idle', form.idle);
  q.set('schemes', form.schemes.join(','));
  q.set('competitor', form.competitor ? '1' : '0');
  q.set('reps', form.replications);
  return q;
}

export function formFromQuery(q: URLSearchParams): ReuseForm {
  const list = (key: string, fallback: string[]) => (q.has(key) ? q.get(key)!.split(',').filter(Boolean) : fallback);
  return {
    path: q.get('path') ?? defaultForm.path,
    workload: q.get('workload') === 'page' ? 'page' : 'download',
    sizes: q.get('sizes') ?? defaultForm.sizes,
    pages: list('pages', defaultForm.pages),
    http: q.get('http') === '2' ? '2' : '1.1-persistent',
    idle: q.get('idle') ?? defaultForm.idle,
    schemes: list('schemes', defaultForm.schemes),
    competitor: q.has('competitor') ? q.get('competitor') === '1' : defaultForm.competitor,
    replications: q.get('reps') ?? defaultForm.replications,
  };
}
