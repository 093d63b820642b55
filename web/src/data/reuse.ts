// "What would reuse give my traffic?": the reuse view's model, as pure functions. A path (a path
// preset's topology and TCP options), a workload (a download of S bytes, or one of the built-in web
// pages) visited twice with an idle time T between the first visit's end and the second's start,
// and the sharing schemes to compare become one scenario and one grid of JSON Pointers: the same
// {scenario, grid, replications} planned by sim-core's PlanGrid in the browser (planGrid) and by
// the service for a batch. Each run's summary gives the repeat visit's completion time and the cost
// it paid or caused (retransmissions, drops, the longest queue its packets joined, and what the
// same visit by a neighbour without reuse suffered at the same moment); the cells aggregate the
// replications with sim-core's statistics, so that a sweep run in the browser and the same sweep
// run as a server batch give the same table.
import type { Result, Scenario } from '@tcb-lab/sim';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

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
  const range = /^(\S+)\s*:\s*(\S+)\s*:\s*(\S+)$/.exec(t);
  let values: number[];
  if (range) {
    const [start, stop, step] = range.slice(1).map(Number);
    if (![start, stop, step].every(Number.isFinite) || !(step > 0)) throw new Error('a range is start:stop:step, numbers, with step > 0');
    const count = Math.floor((stop - start) / step + 1e-9) + 1;
    if (count > maxValuesPerAxis) throw new Error(`a range may have at most ${maxValuesPerAxis} values (this one has ${count})`);
    values = Array.from({ length: Math.max(0, count) }, (_, i) => Number((start + i * step).toPrecision(12)));
  } else {
    values = t.split(',').map((part) => {
      const s = part.trim();
      const v = Number(s);
      if (s === '' || !Number.isFinite(v)) throw new Error(`“${s}” is not a number of seconds`);
      return v;
    });
  }
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

// ---------------------------------------------------------------------------------------------
// The path.

/** Where the visits go on a path: the hosts of copy 0 (the visit) and copy 1 (the competitor). */
export interface PathRoles {
  topology: JsonObject;
  /** `to` of the traffic item: the server of copy i ("server{i}", "left{i}"). */
  serverTemplate: string;
  /** `from` of the traffic item: the client of copy i. */
  clientTemplate: string;
  /** Copy i's server and client. */
  servers: string[];
  clients: string[];
  /** The slowest link on the visit's path, and the path's round-trip propagation delay. */
  bottleneckMbps: number;
  rttS: number;
  queue: string;
}

const copyName = (template: string, i: number) => template.replace('{i}', String(i));

function queueText(queue: Json | undefined): string {
  if (queue && typeof queue === 'object' && !Array.isArray(queue)) {
    if ('packets' in queue) return `a ${queue.packets}-packet queue`;
    if ('bytes' in queue) return `a ${queue.bytes}-byte queue`;
  }
  return 'an unlimited queue';
}

/** Shortest path by hops between two nodes of a custom topology, as its links. */
function customPath(links: JsonObject[], from: string, to: string): JsonObject[] | null {
  const previous = new Map<string, { node: string; link: JsonObject }>();
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) break;
    for (const l of links) {
      const next = l.a === at ? (l.b as string) : l.b === at ? (l.a as string) : null;
      if (next === null || seen.has(next)) continue;
      seen.add(next);
      previous.set(next, { node: at, link: l });
      queue.push(next);
    }
  }
  if (!seen.has(to)) return null;
  const path: JsonObject[] = [];
  for (let at = to; at !== from; at = previous.get(at)!.node) path.unshift(previous.get(at)!.link);
  return path;
}

/**
 * The path of a scenario for `copies` copies of the visit: the topology (with a second server when
 * there are two copies), and who sends to whom. Dumbbells use pairs 0 and 1; in a custom topology
 * the data sender of the first traffic item is the server, renamed "<server>0", and the competitor's
 * server "<server>1" is attached as it is. Throws for a topology with no place for a second server.
 */
export function pathRoles(path: Scenario, copies: 1 | 2): PathRoles {
  const topology = structuredClone(path.topology) as unknown as JsonObject;
  if (topology.kind === 'dumbbell') {
    const bottleneck = topology.bottleneck as JsonObject;
    const access = topology.access as JsonObject;
    topology.pairs = Math.max(topology.pairs as number, copies);
    return {
      topology,
      serverTemplate: 'left{i}',
      clientTemplate: 'right{i}',
      servers: ['left0', 'left1'].slice(0, copies),
      clients: ['right0', 'right1'].slice(0, copies),
      bottleneckMbps: Math.min(bottleneck.bandwidthMbps as number, access.bandwidthMbps as number),
      rttS: (2 * ((bottleneck.delayMs as number) + 2 * (access.delayMs as number))) / 1000,
      queue: queueText(bottleneck.queue),
    };
  }
  if (topology.kind === 'custom') {
    const first = (path.traffic as unknown as JsonObject[])[0];
    // The server sends the data: a web client's `to`, any other item's `from`.
    const server = String(first.type === 'web' ? first.to : first.from);
    const client = String(first.type === 'web' ? first.from : first.to);
    if (server.includes('{') || client.includes('{')) throw new Error(`the path's first traffic item names its hosts with a template (${server} to ${client})`);
    const nodes = topology.nodes as JsonObject[];
    const links = topology.links as JsonObject[];
    const route = customPath(links, server, client);
    if (!route) throw new Error(`the path has no route from ${server} to ${client}`);
    const server0 = `${server}0`;
    const server1 = `${server}1`;
    for (const taken of [server0, server1]) if (nodes.some((n) => n.name === taken)) throw new Error(`the path already has a node named ${taken}`);
    const rename = (name: Json) => (name === server ? server0 : name);
    topology.nodes = nodes.map((n) => ({ ...n, name: rename(n.name) }));
    topology.links = links.map((l) => ({ ...l, a: rename(l.a), b: rename(l.b) }));
    if (copies === 2) {
      // The competitor's server: a copy of the server's links (no explicit address or name).
      (topology.nodes as JsonObject[]).push({ name: server1 });
      for (const l of links) {
        if (l.a !== server && l.b !== server) continue;
        const { name: _name, ...copy } = l;
        (topology.links as JsonObject[]).push({ ...copy, a: l.a === server ? server1 : l.a, b: l.b === server ? server1 : l.b });
      }
    }
    const slowest = route.reduce((a, b) => ((b.bandwidthMbps as number) < (a.bandwidthMbps as number) ? b : a));
    return {
      topology,
      serverTemplate: `${server}{i}`,
      clientTemplate: client,
      servers: [server0, server1].slice(0, copies),
      clients: [client, client].slice(0, copies),
      bottleneckMbps: slowest.bandwidthMbps as number,
      rttS: (2 * route.reduce((s, l) => s + (l.delayMs as number), 0)) / 1000,
      queue: queueText(slowest.queue),
    };
  }
  throw new Error(`a ${String(topology.kind)} topology has no place for a competitor’s server; choose a dumbbell or a custom topology`);
}

const mbps = (v: number) => (v >= 1 ? `${+v.toPrecision(3)} Mb/s` : `${+(v * 1000).toPrecision(3)} kb/s`);

/** One line about a path: its bottleneck, round trip and queue. */
export function describePath(path: Scenario, label?: string): string {
  try {
    const r = pathRoles(path, 1);
    const tcp = (path.tcp ?? {}) as JsonObject;
    const facts = `${mbps(r.bottleneckMbps)}, ${Math.round(r.rttS * 1000)} ms RTT, ${r.queue}, ${tcp.flavor ?? 'newreno'}`;
    return label ? `${label}: ${facts}` : facts;
  } catch (e) {
    return `${label ?? path.name}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The scenario and the grid.

/** Pointers of the grid's axes, in grid order (the first varies slowest). */
export interface ReuseAxes {
  scheme: string;
  size: string;
  idle: string;
}

export function reuseAxes(spec: Pick<ReuseSpec, 'workload'>, roles: PathRoles): ReuseAxes {
  return {
    scheme: `/hosts/${roles.servers[0]}/sharing`,
    size: spec.workload === 'download' ? '/traffic/0/page/objects/0/bytes' : '/traffic/0/page',
    idle: '/traffic/0/thinkS',
  };
}

const sizeValue = (spec: Pick<ReuseSpec, 'workload'>, size: number | string): Json => (spec.workload === 'download' ? size : { named: size });

/** Bytes of one visit at a size of the axis. */
export function visitBytes(spec: Pick<ReuseSpec, 'workload'>, size: number | string): number {
  if (spec.workload === 'download') return size as number;
  return builtInPages.find((p) => p.name === size)?.bytes ?? 0;
}

/**
 * A generous bound on one visit's duration, for the scenario's durationS (the run stops when the
 * visits are done; durationS only bounds it): a minute, plus ten times the transfer at the
 * bottleneck's rate, plus fifty round trips.
 */
export function visitBoundS(bytes: number, roles: PathRoles): number {
  return 60 + (10 * bytes * 8) / (roles.bottleneckMbps * 1e6) + 50 * roles.rttS;
}

export function reuseTitle(spec: ReuseSpec): string {
  return `What would reuse give my traffic? ${spec.workload === 'download' ? 'A download' : 'A web page'} on ${spec.path}, repeated after an idle time`;
}

/**
 * The base scenario: the path's topology, TCP options and seed; one web client item `visit`
 * (copies: the visit, and with a competitor a second one from its own server, without reuse) that
 * fetches the page twice, `thinkS` (the idle time T) apart, opening new connections for the second
 * visit (HTTP/1.0 for a download, persistent connections per page for a page), so that what the
 * first visit left behind is all the second can reuse. The first value of every axis is set.
 */
export function reuseScenario(path: Scenario, spec: ReuseSpec): { scenario: Scenario; roles: PathRoles } {
  const copies = spec.competitor ? 2 : 1;
  const roles = pathRoles(path, copies);
  const maxIdle = Math.max(...spec.idle);
  const maxBytes = Math.max(...spec.sizes.map((s) => visitBytes(spec, s)));
  const visit: JsonObject = {
    type: 'web',
    name: 'visit',
    count: copies,
    from: roles.clientTemplate,
    to: roles.serverTemplate,
  };
  if (spec.workload === 'download') {
    visit.http = '1.0-serial';
    visit.page = { objects: [{ bytes: spec.sizes[0] as number, content: 'other', label: 'the download' }] };
  } else {
    visit.http = spec.http;
    visit.persistentConnection = 'per-page';
    visit.page = { named: spec.sizes[0] as string };
  }
  visit.pageCount = 2;
  visit.thinkS = spec.idle[0];
  // The two copies start within a round trip of each other, not in lockstep.
  if (copies === 2) visit.startJitterS = Number(roles.rttS.toPrecision(6));
  const what = spec.workload === 'download' ? 'downloads a file' : 'fetches a web page';
  const scenario: JsonObject = {
    schemaVersion: 1,
    name: `reuse-${spec.path}`,
    description:
      `The client ${what} from the server twice: a first visit that leaves the server's sharing scheme whatever it keeps, then, an idle time later, ` +
      `the measured repeat visit on new connections. ` +
      (copies === 2 ? `A second client on the same bottleneck does the same from another server without reuse (copy 1): what it suffers at its repeat visit is the cost the scheme causes to others. ` : '') +
      `The path is ${path.name}'s (${describePath(path)}).`,
    reference: reuseTitle(spec),
    seed: path.seed ?? 1,
    durationS: Math.ceil(maxIdle + 2 * visitBoundS(maxBytes, roles)),
    tcp: (path.tcp ?? {}) as JsonObject,
    topology: roles.topology,
    hosts: { [roles.servers[0]]: { sharing: { scheme: spec.schemes[0] } } },
    traffic: [visit],
    record: { trace: 'series' },
  };
  if (path.paper) scenario.paper = path.paper as unknown as JsonObject;
  return { scenario: scenario as unknown as Scenario, roles };
}

export interface ReuseRequest {
  scenario: Scenario;
  grid: Record<string, Json[]>;
  replications: number;
}

/** The sweep as a batch request: schemes x sizes x idle times, the scheme varying slowest. */
export function reuseRequest(path: Scenario, spec: ReuseSpec): { request: ReuseRequest; roles: PathRoles; axes: ReuseAxes } {
  const { scenario, roles } = reuseScenario(path, spec);
  const axes = reuseAxes(spec, roles);
  const grid: Record<string, Json[]> = {
    [axes.scheme]: spec.schemes.map((s) => ({ scheme: s })),
    [axes.size]: spec.sizes.map((s) => sizeValue(spec, s)),
    [axes.idle]: spec.idle,
  };
  return { request: { scenario, grid, replications: spec.replications }, roles, axes };
}

/**
 * What a sweep costs to simulate, in data segments (idle time costs nothing: the run has no
 * events while both clients wait): runs x copies x two visits x segments per visit.
 */
export function sweepSegments(spec: ReuseSpec, mssBytes: number): number {
  const perRun = spec.sizes.reduce<number>((n, s) => n + Math.ceil(visitBytes(spec, s) / mssBytes), 0) / spec.sizes.length;
  const runs = spec.schemes.length * spec.sizes.length * spec.idle.length * spec.replications;
  return Math.round(runs * (spec.competitor ? 2 : 1) * 2 * perRun);
}

/** Runs of the sweep. */
export const sweepRuns = (spec: ReuseSpec) => spec.schemes.length * spec.sizes.length * spec.idle.length * spec.replications;

/**
 * Sweeps up to this many simulated data segments run in the browser's workers; larger ones go to
 * the server. Measured (docs/ARCHITECTURE.md, "The reuse view"): the default question, 421 k
 * segments, takes about 5 s in Chromium on two busy cores, so this is seconds, not minutes.
 */
export const browserSegmentBudget = 1_000_000;

// ---------------------------------------------------------------------------------------------
// One run's numbers.

export interface VisitMetrics {
  /** The repeat visit (copy 0's second page): from its first request to its last byte. */
  completionS: number | null;
  /** The first visit (cold), for reference. */
  firstS: number | null;
  /** Over the repeat visit's connections. */
  retransmissions: number | null;
  dropped: number | null;
  peakQueue: number | null;
  /** The competitor's repeat visit (copy 1), when there is one. */
  competitorS: number | null;
  competitorDropped: number | null;
  competitorRetransmissions: number | null;
}

export const metricKeys = ['completionS', 'firstS', 'retransmissions', 'dropped', 'peakQueue', 'competitorS', 'competitorDropped', 'competitorRetransmissions'] as const;
export type MetricKey = (typeof metricKeys)[number];

export const metricInfo: Record<MetricKey, { label: string; unit: string; competitor?: boolean }> = {
  completionS: { label: 'repeat visit: completion time', unit: 's' },
  firstS: { label: 'first visit (cold): completion time', unit: 's' },
  retransmissions: { label: 'repeat visit: retransmissions', unit: '' },
  dropped: { label: 'repeat visit: packets dropped', unit: '' },
  peakQueue: { label: 'repeat visit: longest queue joined', unit: 'packets' },
  competitorS: { label: 'competitor’s repeat visit: completion time', unit: 's', competitor: true },
  competitorDropped: { label: 'competitor’s repeat visit: packets dropped', unit: '', competitor: true },
  competitorRetransmissions: { label: 'competitor’s repeat visit: retransmissions', unit: '', competitor: true },
};

/** Copy `copy`'s repeat visit: its page and the connections it opened (those to its server from the page's start). */
function repeatVisit(summary: Result, roles: PathRoles, copy: number) {
  const page = summary.pages?.find((p) => p.item === 'visit' && p.client === copy && p.index === 1) ?? null;
  const first = summary.pages?.find((p) => p.item === 'visit' && p.client === copy && p.index === 0) ?? null;
  if (!page) return { page, first, flows: [] };
  const flows = (summary.flows ?? []).filter((f) => f.item === 'visit' && f.from === roles.clients[copy] && f.to === roles.servers[copy] && f.startS >= page.startS);
  return { page, first, flows };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The numbers of one run; null where the summary has none (a visit that did not start or end). */
export function visitMetrics(summary: Result, roles: PathRoles): VisitMetrics {
  if (!summary.pages || !summary.flows) throw new Error('the run summary has no pages or flows: run it at trace level summary or above');
  const own = repeatVisit(summary, roles, 0);
  const started = own.page !== null;
  const out: VisitMetrics = {
    completionS: own.page?.totalTimeS ?? null,
    firstS: own.first?.totalTimeS ?? null,
    retransmissions: started ? sum(own.flows.map((f) => f.retransmissions ?? 0)) : null,
    dropped: started ? sum(own.flows.map((f) => f.packetsDropped)) : null,
    peakQueue: started ? Math.max(0, ...own.flows.map((f) => f.maxQueuePackets)) : null,
    competitorS: null,
    competitorDropped: null,
    competitorRetransmissions: null,
  };
  if (roles.servers.length > 1) {
    const other = repeatVisit(summary, roles, 1);
    if (other.page) {
      out.competitorS = other.page.totalTimeS;
      out.competitorDropped = sum(other.flows.map((f) => f.packetsDropped));
      out.competitorRetransmissions = sum(other.flows.map((f) => f.retransmissions ?? 0));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The table.

/** One run as either path gives it: the grid point's parameters (by pointer) and the summary. */
export interface RunOutcome {
  point: number;
  params: Record<string, Json>;
  replication: number;
  summary: Result;
}

export interface Stats {
  n: number;
  mean: number | null;
  sd: number | null;
  /** The 95% Student-t confidence interval of the mean; null below two values. */
  ci95: [number, number] | null;
}

/** sim-core's statistics of several samples (the WASM build's summarizeSamples). */
export type Summarize = (samples: number[][]) => Promise<Stats[]>;

export interface Cell {
  point: number;
  scheme: string;
  /** Bytes (download) or page name. */
  size: number | string;
  /** Bytes of one visit. */
  bytes: number;
  idle: number;
  runs: number;
  resultHashes: string[];
  samples: Record<MetricKey, number[]>;
  /** Runs in which the metric had no value (a visit that did not finish within durationS). */
  missing: Record<MetricKey, number>;
  stats?: Record<MetricKey, Stats>;
}

/**
 * The runs grouped by grid point, in point order, each metric's values in replication order (the
 * order the statistics sum them in, so both paths give the same bits).
 */
export function collectCells(spec: ReuseSpec, axes: ReuseAxes, roles: PathRoles, runs: RunOutcome[]): Cell[] {
  const byPoint = new Map<number, Cell>();
  const ordered = [...runs].sort((a, b) => a.point - b.point || a.replication - b.replication);
  for (const r of ordered) {
    let cell = byPoint.get(r.point);
    if (!cell) {
      const sharing = r.params[axes.scheme] as { scheme: string };
      const sizeParam = r.params[axes.size];
      const size = spec.workload === 'download' ? (sizeParam as number) : (sizeParam as { named: string }).named;
      cell = {
        point: r.point,
        scheme: sharing.scheme,
        size,
        bytes: visitBytes(spec, size),
        idle: r.params[axes.idle] as number,
        runs: 0,
        resultHashes: [],
        samples: Object.fromEntries(metricKeys.map((k) => [k, []])) as unknown as Record<MetricKey, number[]>,
        missing: Object.fromEntries(metricKeys.map((k) => [k, 0])) as unknown as Record<MetricKey, number>,
      };
      byPoint.set(r.point, cell);
    }
    cell.runs++;
    cell.resultHashes.push(r.summary.resultHash ?? '');
    const m = visitMetrics(r.summary, roles);
    for (const k of metricKeys) {
      if (m[k] === null) cell.missing[k]++;
      else cell.samples[k].push(m[k]!);
    }
  }
  return [...byPoint.values()];
}

/** Adds each cell's statistics (one call for the whole table). */
export async function summarizeCells(cells: Cell[], summarize: Summarize): Promise<Cell[]> {
  const samples = cells.flatMap((c) => metricKeys.map((k) => c.samples[k]));
  const stats = await summarize(samples);
  return cells.map((c, i) => ({ ...c, stats: Object.fromEntries(metricKeys.map((k, j) => [k, stats[i * metricKeys.length + j]])) as Record<MetricKey, Stats> }));
}

export interface SweepPoint {
  x: number | string;
  mean: number | null;
  ci: [number, number] | null;
}

/** One line per scheme (in the spec's order): a metric against the idle time at one size, or against the size at one idle time. */
export function linesAgainst(cells: Cell[], spec: ReuseSpec, against: 'idle' | 'size', fixed: number | string, metric: MetricKey): { name: string; points: SweepPoint[] }[] {
  return spec.schemes.map((scheme) => ({
    name: scheme,
    points: cells
      .filter((c) => c.scheme === scheme && (against === 'idle' ? c.size === fixed : c.idle === fixed))
      .sort((a, b) => (against === 'idle' ? a.idle - b.idle : a.bytes - b.bytes))
      .map((c) => {
        const s = c.stats?.[metric];
        return { x: against === 'idle' ? c.idle : c.bytes, mean: s?.mean ?? null, ci: spec.replications > 1 ? (s?.ci95 ?? null) : null };
      }),
  }));
}

export interface CostRow {
  scheme: string;
  cell: Cell;
  /** Mean repeat-visit time minus the baseline scheme's, and relative to it. */
  gainS: number | null;
  gainRelative: number | null;
}

/**
 * The cost table at one size and idle time: a row per scheme, with the completion time against the
 * baseline (independent when compared, else the first scheme).
 */
export function costRows(cells: Cell[], spec: ReuseSpec, size: number | string, idle: number): { baseline: string; rows: CostRow[] } {
  const at = spec.schemes.map((scheme) => cells.find((c) => c.scheme === scheme && c.size === size && c.idle === idle)).filter((c): c is Cell => !!c);
  const baseline = spec.schemes.includes('independent') ? 'independent' : spec.schemes[0];
  const base = at.find((c) => c.scheme === baseline)?.stats?.completionS.mean ?? null;
  return {
    baseline,
    rows: at.map((cell) => {
      const mean = cell.stats?.completionS.mean ?? null;
      const gainS = mean === null || base === null ? null : mean - base;
      return { scheme: cell.scheme, cell, gainS, gainRelative: gainS === null || !base ? null : gainS / base };
    }),
  };
}

/** Sizes as the axis labels them: 5.3 MB, 100 kB; pages by name and size. */
export function sizeLabel(spec: Pick<ReuseSpec, 'workload'>, size: number | string): string {
  if (spec.workload === 'page') {
    const p = builtInPages.find((x) => x.name === size);
    return p ? `${size} (${bytesLabel(p.bytes)}, ${p.objects} objects)` : String(size);
  }
  return bytesLabel(size as number);
}

export function bytesLabel(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toPrecision(3)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(3)} MB`;
  if (bytes >= 1e3) return `${+(bytes / 1e3).toPrecision(3)} kB`;
  return `${bytes} B`;
}

/** The table's numbers, for comparing two runs of the same sweep: every cell's statistics and run hashes. */
export function tableNumbers(cells: Cell[]) {
  return cells.map((c) => ({ point: c.point, scheme: c.scheme, size: c.size, idle: c.idle, runs: c.runs, resultHashes: c.resultHashes, stats: c.stats ?? null }));
}

/** sim-core's statistics of a sample (summarizeSamples) as the table keeps them: the interval as [low, high]. */
export function statsOf(s: { n: number; mean: number | null; sd: number | null; halfWidth: number | null }): Stats {
  return { n: s.n, mean: s.mean, sd: s.sd, ci95: s.mean !== null && s.halfWidth !== null ? [s.mean - s.halfWidth, s.mean + s.halfWidth] : null };
}

/**
 * The form field an error of the planner or the service belongs to, from its path in the batch
 * request ("$.grid['/traffic/0/thinkS'][2]", "$.scenario.topology", "$.replications"); null for
 * the sweep as a whole.
 */
export function fieldOfPath(path: string | undefined, axes: ReuseAxes, workload: Workload): keyof ReuseForm | null {
  if (!path) return null;
  const grid = /^\$\.grid\['([^']*)'\]/.exec(path);
  if (grid) {
    if (grid[1] === axes.scheme) return 'schemes';
    if (grid[1] === axes.size) return workload === 'download' ? 'sizes' : 'pages';
    if (grid[1] === axes.idle) return 'idle';
    return null;
  }
  if (path.startsWith('$.replications')) return 'replications';
  if (path.startsWith('$.scenario')) return 'path';
  return null;
}

/** Every cell as a table row: the grid point, runs, and each metric's mean and interval. */
export function cellsTable(cells: Cell[], spec: ReuseSpec): { columns: string[]; rows: (string | number | null)[][] } {
  const keys = metricKeys.filter((k) => spec.competitor || !metricInfo[k].competitor);
  return {
    columns: [
      'scheme',
      spec.workload === 'download' ? 'size (B)' : 'page',
      'idle (s)',
      'runs',
      ...keys.flatMap((k) => {
        const name = `${metricInfo[k].label}${metricInfo[k].unit ? ` (${metricInfo[k].unit})` : ''}`;
        return [name, `${name} ci95 low`, `${name} ci95 high`];
      }),
    ],
    rows: cells.map((c) => [
      c.scheme,
      c.size,
      c.idle,
      c.runs,
      ...keys.flatMap((k) => {
        const s = c.stats?.[k];
        return [s?.mean ?? null, s?.ci95?.[0] ?? null, s?.ci95?.[1] ?? null];
      }),
    ]),
  };
}

/**
 * Whether an axis's values read better evenly spaced, each labelled, than on a linear scale: when
 * they spread over more than a factor of 20 (1, 10, 60, 600 s; 100 kB to 5.3 MB), a linear axis
 * would crowd the small ones into one point.
 */
export function evenlySpaced(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  return values.length > 2 && positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 20;
}

/** The lines with each x replaced by its label (an evenly spaced axis). */
export function labelled<L extends { points: SweepPoint[] }>(lines: L[], label: (x: number) => string): L[] {
  return lines.map((l) => ({ ...l, points: l.points.map((p) => ({ ...p, x: label(p.x as number) })) }));
}
