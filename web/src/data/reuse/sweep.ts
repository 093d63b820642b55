// A reuse question as one scenario and one grid of JSON Pointers ({scenario, grid, replications}),
// planned by sim-core in the browser (planGrid) and by the service for a batch alike, and its size.
import { gridRunCount, type Json, type Scenario } from '@tcb-lab/sim';
import { builtInPages, type ReuseSpec } from './form';
import { describePath, pathRoles, type PathRoles } from './path';

type JsonObject = { [key: string]: Json };

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

/** The values of the grid's axes: each scheme as a sharing configuration, the sizes, the idle times. */
export function reuseGridValues(spec: ReuseSpec): Record<keyof ReuseAxes, Json[]> {
  return { scheme: spec.schemes.map((s) => ({ scheme: s })), size: spec.sizes.map((s) => sizeValue(spec, s)), idle: spec.idle };
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
  const values = reuseGridValues(spec);
  const grid: Record<string, Json[]> = { [axes.scheme]: values.scheme, [axes.size]: values.size, [axes.idle]: values.idle };
  return { request: { scenario, grid, replications: spec.replications }, roles, axes };
}

/**
 * What a sweep costs to simulate, in data segments (idle time costs nothing: the run has no
 * events while both clients wait): runs x copies x two visits x segments per visit.
 */
export function sweepSegments(spec: ReuseSpec, mssBytes: number): number {
  const perRun = spec.sizes.reduce<number>((n, s) => n + Math.ceil(visitBytes(spec, s) / mssBytes), 0) / spec.sizes.length;
  return Math.round(sweepRuns(spec) * (spec.competitor ? 2 : 1) * 2 * perRun);
}

/** Runs of the sweep. */
export const sweepRuns = (spec: ReuseSpec) => gridRunCount(reuseGridValues(spec), spec.replications);

/**
 * Sweeps up to this many simulated data segments run in the browser's workers; larger ones go to
 * the server. Measured (docs/PERFORMANCE.md, "The reuse view in the browser"): the default
 * question, 421 k segments, takes about 5 s in Chromium on two busy cores, so this is seconds, not
 * minutes.
 */
export const browserSegmentBudget = 1_000_000;
