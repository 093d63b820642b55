// The reuse view's model: the form's checks, the path's roles, the scenario and grid (against the
// preset reuse-repeat-visit, which is this scenario, and against sim-core's planner), a run's
// numbers, the table and its charts, and a small sweep through the engine.
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator, type Result, type Scenario } from '@tcb-lab/sim';
import geo from '../../sim-core/scenario/presets/path-geo-satellite.json';
import dumbbell from '../../sim-core/scenario/presets/scheme-independent.json';
import single from '../../sim-core/scenario/presets/flavor-cubic.json';
import comparePreset from '../../sim-core/scenario/presets/reuse-repeat-visit.json';
import {
  builtInPages,
  collectCells,
  costRows,
  defaultForm,
  describePath,
  evenlySpaced,
  fieldOfPath,
  formFromQuery,
  formToQuery,
  linesAgainst,
  parseForm,
  parseIdle,
  parseSize,
  pathRoles,
  reusePaths,
  reuseRequest,
  reuseScenario,
  statsOf,
  summarizeCells,
  sweepRuns,
  sweepSegments,
  visitMetrics,
  type ReuseSpec,
  type RunOutcome,
} from '../src/data/reuse';

const sim = createSimulator({ maxWorkers: 1 });
afterAll(() => sim.close());

// Every preset, by name: the paths the view offers come from here.
const presetFiles = import.meta.glob('../../sim-core/scenario/presets/*.json', { eager: true, import: 'default' }) as Record<string, Scenario>;
const presetNamed = (name: string): Scenario | undefined => presetFiles[`../../sim-core/scenario/presets/${name}.json`];

const geoPath = geo as unknown as Scenario;
const dumbbellPath = dumbbell as unknown as Scenario;

const spec = (over: Partial<ReuseSpec> = {}): ReuseSpec => ({
  path: 'path-geo-satellite',
  workload: 'download',
  sizes: [100000, 5300000],
  http: '1.1-persistent',
  idle: [1, 10],
  schemes: ['independent', 'careful-resume'],
  competitor: true,
  replications: 1,
  ...over,
});

describe('the form', () => {
  it('reads sizes with decimal prefixes and idle times as lists or ranges', () => {
    expect(parseSize('5.3M')).toBe(5300000);
    expect(parseSize('100k')).toBe(100000);
    expect(parseSize(' 1460 ')).toBe(1460);
    expect(parseIdle('1, 10, 600')).toEqual([1, 10, 600]);
    expect(parseIdle('0:30:10')).toEqual([0, 10, 20, 30]);
  });

  it('puts each bad value’s message at its field', () => {
    const bad = parseForm({ ...defaultForm, sizes: '100k, 0', idle: '5, -1', schemes: [], replications: '0' });
    expect(bad.spec).toBeNull();
    expect(bad.errors).toEqual({
      sizes: 'a size must be at least 1 byte (got 0)',
      idle: 'an idle time cannot be negative (got -1 s)',
      schemes: 'give at least one scheme',
      replications: 'replications must be an integer from 1 to 100',
    });
    expect(parseForm({ ...defaultForm, sizes: '1M, 1000k' }).errors).toEqual({ sizes: '1000000 is given twice' });
    expect(parseForm({ ...defaultForm, sizes: 'lots' }).errors).toEqual({ sizes: '“lots” is not a size (bytes, or a number with k, M or G)' });
    expect(parseForm({ ...defaultForm, idle: '0:100:1' }).errors).toEqual({ idle: 'a range may have at most 12 values (this one has 101)' });
    expect(parseForm({ ...defaultForm, workload: 'page', pages: [] }).errors).toEqual({ pages: 'give at least one page' });
    expect(parseForm({ ...defaultForm, path: 'nowhere' }).errors?.path).toMatch(/^choose one of the paths/);
  });

  it('takes the pages smallest first and survives the link', () => {
    const page = parseForm({ ...defaultForm, workload: 'page', pages: ['etcp-java', 'etcp-text'] });
    expect(page.spec?.sizes).toEqual(['etcp-text', 'etcp-java']);
    expect(builtInPages.map((p) => p.name)).toEqual(['etcp-text', 'etcp-graphics', 'etcp-map', 'etcp-java', 'etcp-frames']);
    for (const form of [defaultForm, { ...defaultForm, workload: 'page' as const, http: '2' as const, competitor: false }]) {
      expect(formFromQuery(formToQuery(form))).toEqual(form);
    }
  });

  it('maps the planner’s and the service’s error paths to fields', () => {
    const { axes } = reuseRequest(geoPath, spec());
    expect(fieldOfPath("$.grid['/traffic/0/thinkS'][1]", axes, 'download')).toBe('idle');
    expect(fieldOfPath("$.grid['/traffic/0/page/objects/0/bytes'][0]", axes, 'download')).toBe('sizes');
    expect(fieldOfPath("$.grid['/hosts/server0/sharing'][2]", axes, 'download')).toBe('schemes');
    expect(fieldOfPath('$.scenario.durationS', axes, 'download')).toBe('path');
    expect(fieldOfPath('$.grid', axes, 'download')).toBeNull();
  });
});

describe('the path', () => {
  it('a custom topology: the first item’s data sender is the server, copied for the competitor', () => {
    const r = pathRoles(geoPath, 2);
    expect(r.servers).toEqual(['server0', 'server1']);
    expect(r.clients).toEqual(['client', 'client']);
    expect(r.serverTemplate).toBe('server{i}');
    expect(r.bottleneckMbps).toBe(50);
    expect(r.rttS).toBeCloseTo(0.6, 12);
    const links = r.topology.links as { a: string; b: string }[];
    expect(links.filter((l) => l.a === 'server1' || l.b === 'server1')).toHaveLength(1);
    expect(pathRoles(geoPath, 1).topology.nodes).toEqual([{ name: 'server0' }, { name: 'gateway' }, { name: 'client' }]);
  });

  it('a dumbbell: pairs 0 and 1', () => {
    const r = pathRoles(dumbbellPath, 2);
    expect([r.servers, r.clients, r.bottleneckMbps, r.rttS]).toEqual([['left0', 'left1'], ['right0', 'right1'], 2, 0.084]);
  });

  it('every path the view offers names its server and client and has room for a competitor', () => {
    // The custom paths' first traffic item must name concrete hosts, not {i} templates.
    expect(reusePaths.map((p) => p.preset)).toEqual(expect.arrayContaining(['path-geo-satellite', 'path-mobile', 'path-intercontinental']));
    for (const { preset } of reusePaths) {
      const path = presetNamed(preset);
      expect(path, preset).toBeDefined();
      const r = pathRoles(path!, 2);
      expect(r.servers, preset).toHaveLength(2);
      expect(r.clients, preset).toHaveLength(2);
      expect(describePath(path!), preset).not.toMatch(/template|no route|no place/);
    }
    const mobile = pathRoles(presetNamed('path-mobile')!, 2);
    expect([mobile.servers, mobile.clients, mobile.bottleneckMbps, mobile.rttS]).toEqual([['server0', 'server1'], ['client', 'client'], 30, 0.08]);
    const intercontinental = pathRoles(presetNamed('path-intercontinental')!, 2);
    expect([intercontinental.bottleneckMbps, intercontinental.rttS]).toEqual([100, 0.15]);
  });

  it('a topology with no room for a second server is refused with the reason', () => {
    expect(() => pathRoles(single as unknown as Scenario, 2)).toThrow('a single-link topology has no place for a competitor’s server');
  });
});

describe('the scenario and the grid', () => {
  it('is the preset reuse-repeat-visit for its question (one source for both)', () => {
    const { scenario } = reuseScenario(geoPath, spec({ sizes: [5300000], idle: [10], schemes: ['careful-resume'] }));
    const strip = (s: object) => {
      const { name: _n, description: _d, reference: _r, ...rest } = s as Record<string, unknown>;
      return rest;
    };
    expect(strip(scenario)).toEqual(strip(comparePreset));
  });

  it('sweeps scheme, size and idle time, the scheme slowest; sim-core plans it', async () => {
    const s = spec();
    const { request, axes } = reuseRequest(geoPath, s);
    expect(Object.keys(request.grid)).toEqual([axes.scheme, axes.size, axes.idle]);
    expect(request.grid[axes.scheme]).toEqual([{ scheme: 'independent' }, { scheme: 'careful-resume' }]);
    const plan = await sim.planGrid(request);
    expect(plan.points).toHaveLength(sweepRuns(s));
    expect(plan.points.map((p) => Object.values(p.params))[1]).toEqual([{ scheme: 'independent' }, 100000, 10]);
    // durationS only bounds the run (it stops when both visits are done) and leaves room for both.
    expect(plan.normalised.durationS).toBeGreaterThan(10 + 2 * 60);
  });

  it('a web page: persistent connections per page, the page named', async () => {
    const s = spec({ workload: 'page', sizes: ['etcp-text', 'etcp-java'], http: '2', competitor: false });
    const { request, axes } = reuseRequest(dumbbellPath, s);
    const visit = (request.scenario.traffic as unknown as Record<string, unknown>[])[0];
    expect(visit).toMatchObject({ type: 'web', count: 1, from: 'right{i}', to: 'left{i}', http: '2', persistentConnection: 'per-page', pageCount: 2, page: { named: 'etcp-text' } });
    expect(request.grid[axes.size]).toEqual([{ named: 'etcp-text' }, { named: 'etcp-java' }]);
    expect((await sim.planGrid(request)).points).toHaveLength(8);
  });

  it('spaces an axis evenly when its values spread over more than a factor of 20', () => {
    expect(evenlySpaced([1, 10, 60, 600])).toBe(true);
    expect(evenlySpaced([0, 10, 600])).toBe(true);
    expect(evenlySpaced([1, 20])).toBe(false);
    expect(evenlySpaced([10, 20, 30])).toBe(false);
    expect(evenlySpaced([100000, 1000000, 5300000])).toBe(true);
  });

  it('counts what the sweep costs to simulate', () => {
    // 2 schemes x 2 sizes x 2 idle times; 2 copies x 2 visits x the mean size in segments.
    expect(sweepSegments(spec(), 1460)).toBe(8 * 2 * 2 * ((Math.ceil(100000 / 1460) + Math.ceil(5300000 / 1460)) / 2));
  });
});

// A run's summary with what the view reads: two copies' pages and flows.
function summary(over: { hash: string; own: number; other: number; drops?: number }): Result {
  const pages = [
    { item: 'visit', client: 0, index: 0, startS: 0, totalTimeS: 6 },
    { item: 'visit', client: 1, index: 0, startS: 0.5, totalTimeS: 6.2 },
    { item: 'visit', client: 0, index: 1, startS: 16, totalTimeS: over.own },
    { item: 'visit', client: 1, index: 1, startS: 16.7, totalTimeS: over.other },
  ];
  const flow = (from: string, to: string, startS: number, retransmissions: number, packetsDropped: number, maxQueuePackets: number) => ({
    item: 'visit', from, to, startS, retransmissions, packetsDropped, maxQueuePackets,
  });
  const flows = [
    flow('client', 'server0', 0, 5, 5, 900),
    flow('client', 'server1', 0.5, 4, 4, 800),
    flow('client', 'server0', 16, 1, over.drops ?? 2, 120),
    flow('client', 'server0', 16.2, 0, 0, 30),
    flow('client', 'server1', 16.7, 3, 3, 100),
  ];
  return { pages, flows, resultHash: over.hash } as unknown as Result;
}

describe('a run’s numbers and the table', () => {
  const roles = pathRoles(geoPath, 2);
  const s = spec({ sizes: [5300000], idle: [10], replications: 2 });
  const { axes } = reuseRequest(geoPath, s);

  it('reads the repeat visit’s connections, not the first visit’s, and the competitor’s', () => {
    expect(visitMetrics(summary({ hash: 'a', own: 3.5, other: 6.3 }), roles)).toEqual({
      completionS: 3.5,
      firstS: 6,
      retransmissions: 1,
      dropped: 2,
      peakQueue: 120,
      competitorS: 6.3,
      competitorDropped: 3,
      competitorRetransmissions: 3,
    });
    expect(() => visitMetrics({ resultHash: 'x' } as unknown as Result, roles)).toThrow(/trace level summary/);
  });

  const params = (scheme: string) => ({ [axes.scheme]: { scheme }, [axes.size]: 5300000, [axes.idle]: 10 });
  const runs: RunOutcome[] = [
    // Out of order on purpose: the cells sort by point, then replication.
    { point: 1, params: params('careful-resume'), replication: 1, summary: summary({ hash: 'd', own: 3.7, other: 6.4, drops: 4 }) },
    { point: 0, params: params('independent'), replication: 0, summary: summary({ hash: 'a', own: 6.2, other: 6.2 }) },
    { point: 1, params: params('careful-resume'), replication: 0, summary: summary({ hash: 'c', own: 3.5, other: 6.3 }) },
    { point: 0, params: params('independent'), replication: 1, summary: summary({ hash: 'b', own: 6.4, other: 6.2 }) },
  ];

  it('groups replications per point in replication order, and asks for every sample’s statistics at once', async () => {
    const cells = collectCells(s, axes, roles, runs);
    expect(cells.map((c) => [c.scheme, c.resultHashes])).toEqual([['independent', ['a', 'b']], ['careful-resume', ['c', 'd']]]);
    expect(cells[1].samples.completionS).toEqual([3.5, 3.7]);
    expect(cells[1].samples.dropped).toEqual([2, 4]);
    const asked: number[][][] = [];
    const withStats = await summarizeCells(cells, async (samples) => {
      asked.push(samples);
      return samples.map((x) => ({ n: x.length, mean: x[0], sd: null, ci95: null }));
    });
    expect(asked).toHaveLength(1);
    expect(withStats[1].stats?.completionS.mean).toBe(3.5);
    expect(withStats[1].stats?.competitorS.mean).toBe(6.3);
  });

  it('has sim-core’s statistics, the lines per scheme and the cost against independent', async () => {
    const cells = await summarizeCells(collectCells(s, axes, roles, runs), async (samples) => (await sim.summarizeSamples(samples)).map(statsOf));
    const cr = cells[1].stats!.completionS;
    expect(cr.n).toBe(2);
    expect(cr.mean).toBe((3.5 + 3.7) / 2);
    // t(0.975; 1) = 12.7062 (Abramowitz and Stegun, Table 26.10), sd = 0.1414...
    expect(cr.ci95![1] - cr.mean!).toBeCloseTo((12.706204736174698 * Math.sqrt(0.02)) / Math.sqrt(2), 9);
    const lines = linesAgainst(cells, s, 'idle', 5300000, 'completionS');
    // The means are sim-core's: the values summed in replication order, then divided.
    expect(lines.map((l) => [l.name, l.points.map((p) => [p.x, p.mean])])).toEqual([
      ['independent', [[10, (6.2 + 6.4) / 2]]],
      ['careful-resume', [[10, (3.5 + 3.7) / 2]]],
    ]);
    expect(lines[1].points[0].ci).toEqual(cr.ci95);
    const cost = costRows(cells, s, 5300000, 10);
    expect(cost.baseline).toBe('independent');
    expect(cost.rows.map((r) => [r.scheme, r.gainS])).toEqual([
      ['independent', 0],
      ['careful-resume', (3.5 + 3.7) / 2 - (6.2 + 6.4) / 2],
    ]);
  });
});

describe('a small sweep through the engine', () => {
  it('gives every point its numbers, the same for the same seed', async () => {
    const s = spec({ path: 'scheme-independent', sizes: [60000], idle: [1, 30], schemes: ['independent', 'bdp-resume'] });
    const { request, roles, axes } = reuseRequest(dumbbellPath, s);
    const plan = await sim.planGrid(request);
    const runOnce = () =>
      Promise.all(
        plan.points.map(async (p, point) => ({
          point,
          params: p.params as RunOutcome['params'],
          replication: 0,
          summary: (await sim.runScenario(p.scenario as unknown as Scenario, { seed: p.seed, trace: 'summary' })).summary,
        })),
      );
    const first = collectCells(s, axes, roles, await runOnce());
    expect(first).toHaveLength(4);
    for (const c of first) {
      expect(c.samples.completionS).toHaveLength(1);
      expect(c.samples.firstS[0]).toBeGreaterThan(0);
      expect(c.samples.competitorS).toHaveLength(1);
    }
    // Independent connections start cold: the repeat visit takes what the first one took, whatever the idle time.
    const independent = first.filter((c) => c.scheme === 'independent');
    expect(independent[0].samples.completionS[0]).toBe(independent[1].samples.completionS[0]);
    expect(collectCells(s, axes, roles, await runOnce())).toEqual(first);
  });

  it('a web page over browser-style HTTP/1.1: both copies’ repeat visits and their connections', async () => {
    const s = spec({ path: 'scheme-independent', workload: 'page', sizes: ['etcp-text'], http: '1.1-persistent', idle: [5], schemes: ['independent', 'careful-resume'] });
    const { request, roles, axes } = reuseRequest(dumbbellPath, s);
    const plan = await sim.planGrid(request);
    const runs = await Promise.all(
      plan.points.map(async (p, point) => ({
        point,
        params: p.params as RunOutcome['params'],
        replication: 0,
        summary: (await sim.runScenario(p.scenario as unknown as Scenario, { seed: p.seed, trace: 'summary' })).summary,
      })),
    );
    for (const r of runs) {
      // Persistent connections per page: the repeat visit opens its own, after the first visit's closed.
      const page = r.summary.pages!.find((p) => p.client === 0 && p.index === 1)!;
      const opened = r.summary.flows!.filter((f) => f.to === 'left0' && f.startS >= page.startS);
      expect(opened.length).toBeGreaterThan(0);
      expect(r.summary.flows!.filter((f) => f.to === 'left0' && f.startS < page.startS).every((f) => f.endS !== null && f.endS <= page.startS)).toBe(true);
    }
    const cells = collectCells(s, axes, roles, runs);
    expect(cells.map((c) => [c.scheme, c.size, c.bytes])).toEqual([
      ['independent', 'etcp-text', 60416],
      ['careful-resume', 'etcp-text', 60416],
    ]);
    for (const c of cells) for (const k of ['completionS', 'retransmissions', 'peakQueue', 'competitorS'] as const) expect(c.samples[k]).toHaveLength(1);
  });
});
