import { describe, expect, it } from 'vitest';
import { findInSummary, jsonPathToPointer, type Scenario } from '@tcb-lab/sim';
import schema from '@schema/scenario.schema.json';
import { scalarPointers, schemesOf, withScheme } from '../src/data/scenarioEdit';
import { gridPointerOf, parseRange, parseValues, valueLabel } from '../src/data/sweepValues';
import { afterFirstSentence, firstSentence, groupPresets, paperOf, referenceOf } from '../src/data/presets';
import { branchLabel, controlOf, discriminator, initialValue, labelOf, matchBranch, parseNumberInput, resolve, type SchemaNode } from '../src/data/schemaForm';

const root = schema as unknown as SchemaNode;

describe('JSON Pointers and error paths', () => {
  it('reads escaped tokens', () => {
    const doc = { a: { 'b/c': [1, 2] } };
    expect(findInSummary(doc, '/a/b~1c/1')).toBe(2);
  });

  it('turns the CLI’s paths into pointers', () => {
    expect(jsonPathToPointer('$')).toBe('');
    expect(jsonPathToPointer('$.traffic[0].to')).toBe('/traffic/0/to');
    expect(jsonPathToPointer("$.hosts['left0'].sharing.scheme")).toBe('/hosts/left0/sharing/scheme');
    expect(jsonPathToPointer("$.hosts['*'].sharing")).toBe('/hosts/*/sharing');
  });
});

describe('schemes', () => {
  const base = { schemaVersion: 1, hosts: { left0: { sharing: { scheme: 'etcp', tickets: 'html-pre' } } } } as unknown as Scenario;
  it('switches every host that names a scheme, keeping options when the scheme stays', () => {
    expect(schemesOf(base)).toEqual(['etcp']);
    expect(withScheme(base, 'tcp-int').hosts).toEqual({ left0: { sharing: { scheme: 'tcp-int' } } });
    expect(withScheme(base, 'etcp').hosts).toEqual(base.hosts);
  });
  it('uses "*" when no host names one', () => {
    const plain = { schemaVersion: 1 } as unknown as Scenario;
    expect(schemesOf(plain)).toEqual(['independent']);
    expect(withScheme(plain, 'etcp').hosts).toEqual({ '*': { sharing: { scheme: 'etcp' } } });
  });
});

describe('sweeps', () => {
  it('parses lists and inclusive ranges', () => {
    expect(parseValues('1, 2, 4')).toEqual([1, 2, 4]);
    expect(parseValues('reno, sack')).toEqual(['reno', 'sack']);
    expect(parseValues('0.1:0.5:0.1')).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(() => parseValues('1:5:0')).toThrow(/step/);
    expect(parseValues('')).toEqual([]);
    // A string with colons is not a range.
    expect(parseValues('a:b:c')).toEqual(['a:b:c']);
    expect(() => parseRange('0:100:1', 12)).toThrow('a range may have at most 12 values (this one has 101)');
  });
  it('reads JSON values whole: objects in a list are not split at their commas', () => {
    const schemes = [{ scheme: 'independent' }, { scheme: 'etcp', tickets: 'content' }];
    expect(parseValues('{"scheme": "independent"}, {"scheme": "etcp", "tickets": "content"}')).toEqual(schemes);
    expect(parseValues(JSON.stringify(schemes))).toEqual(schemes);
    expect(parseValues('[1, 2], [3]')).toEqual([[1, 2], [3]]);
    expect(parseValues('"a, b", c')).toEqual(['a, b', 'c']);
    expect(() => parseValues('{"scheme": etcp}')).toThrow(/is not JSON/);
  });
  it('labels values without JSON quotes, sharing configurations by their scheme', () => {
    expect(valueLabel('etcp')).toBe('etcp');
    expect(valueLabel(4)).toBe('4');
    expect(valueLabel({ scheme: 'etcp', tickets: 'content' })).toBe('etcp (tickets content)');
    expect(valueLabel({ scheme: 'independent' })).toBe('independent');
    expect(valueLabel({ packets: 10 })).toBe('{"packets":10}');
  });
  it('finds the grid pointer an error path names', () => {
    expect(gridPointerOf("$.grid['/tcp/flavor'][2]", ['/durationS', '/tcp/flavor'])).toBe('/tcp/flavor');
    expect(gridPointerOf("$.grid['/tcp/flavor']", ['/tcp/flavor'])).toBe('/tcp/flavor');
    expect(gridPointerOf("$.grid['/tcp/flavorX'][0]", ['/tcp/flavor'])).toBeUndefined();
    expect(gridPointerOf('$.scenario.tcp', ['/tcp'])).toBeUndefined();
  });
  it('lists scalar pointers', () => {
    expect(scalarPointers({ a: 1, b: { c: 'x', d: [true] } })).toEqual(['/a', '/b/c', '/b/d/0']);
  });
});

describe('presets', () => {
  const catalogue = [
    { id: 'etcp', short: 'E-TCP', authors: 'Eggert, Heidemann, Touch', title: 'Effects of Ensemble-TCP', year: 2000, finding: 'Ensembles are faster.' },
    { id: 'spand', short: 'TCP/SPAND', authors: 'Zhang, Qiu, Keshav', title: 'Speeding Up Short Data Transfers' },
  ];
  it('groups by the paper field, in the catalogue’s order, unknown papers last', () => {
    const item = (name: string, id?: string, section?: string) => ({ name, description: '', reference: `ref of ${name}`, ...(id ? { paper: { id, ...(section ? { section } : {}) } } : {}) });
    expect(paperOf(item('a', 'etcp'), catalogue)).toMatchObject({ key: 'etcp', title: 'Eggert, Heidemann, Touch: Effects of Ensemble-TCP (2000)', finding: 'Ensembles are faster.', docFile: 'etcp.md' });
    expect(paperOf(item('b', 'nope'), catalogue).key).toBe('other');
    expect(paperOf(item('c'), catalogue).key).toBe('other');
    const groups = groupPresets([item('x'), item('spand-fig10', 'spand'), item('etcp-fig4-fair', 'etcp'), item('etcp-fig3', 'etcp')], catalogue);
    expect(groups.map((g) => [g.paper.key, g.presets.map((p) => p.name)])).toEqual([
      ['etcp', ['etcp-fig4-fair', 'etcp-fig3']],
      ['spand', ['spand-fig10']],
      ['other', ['x']],
    ]);
  });
  it('names where in its paper an item comes from, or its own reference', () => {
    expect(referenceOf({ name: 'a', description: '', reference: 'x', paper: { id: 'etcp', section: '§3.4, Fig. 4' } }, catalogue)).toBe('E-TCP §3.4, Fig. 4');
    expect(referenceOf({ name: 'a', description: '', reference: 'Benchmark' }, catalogue)).toBe('Benchmark');
  });
  it('shortens descriptions to their first sentence', () => {
    expect(firstSentence('One 100 KB Reno transfer. More text.')).toBe('One 100 KB Reno transfer.');
  });
  it('keeps what a description says after its first sentence, for the explorer’s “more”', () => {
    expect(afterFirstSentence('One 100 KB Reno transfer (Fig. 3).  Why it  matters. And how.')).toBe('Why it matters. And how.');
    expect(afterFirstSentence('One 100 KB Reno transfer.')).toBe('');
  });
});

describe('the form model from the scenario schema', () => {
  it('resolves references and finds controls', () => {
    const topology = controlOf(root, root.properties!.topology);
    expect(topology.kind).toBe('choice');
    if (topology.kind !== 'choice') return;
    expect(discriminator(topology.branches)).toBe('kind');
    expect(topology.branches.map((b) => branchLabel(b, 'kind'))).toContain('Single link');
    const tcp = controlOf(root, root.properties!.tcp);
    expect(tcp.kind).toBe('object');
    const flavor = controlOf(root, resolve(root, root.properties!.tcp).properties!.flavor);
    expect(flavor).toEqual({ kind: 'enum', options: ['tahoe', 'reno', 'newreno', 'sack', 'cubic', 'bbr'] });
    expect(controlOf(root, root.properties!.hosts).kind).toBe('map');
  });

  it('tells which branch a value is in', () => {
    const topology = controlOf(root, root.properties!.topology);
    if (topology.kind !== 'choice') throw new Error('topology is a choice');
    expect(matchBranch(topology.branches, { kind: 'dumbbell' })).toBe(1);
    const iw = controlOf(root, resolve(root, root.properties!.tcp).properties!.initialWindow);
    if (iw.kind !== 'choice') throw new Error('initialWindow is a choice');
    expect(matchBranch(iw.branches, 'rfc3390')).toBe(1);
    expect(matchBranch(iw.branches, 4)).toBe(0);
    const queue = controlOf(root, root.$defs!.queue);
    if (queue.kind !== 'choice') throw new Error('queue is a choice');
    expect(matchBranch(queue.branches, { bytes: 10000 })).toBe(1);
    expect(matchBranch(queue.branches, 'unlimited')).toBe(2);
  });

  it('starts a new branch from a value the schema accepts', () => {
    const topology = controlOf(root, root.properties!.topology);
    if (topology.kind !== 'choice') throw new Error('topology is a choice');
    const single = initialValue(root, topology.branches[0]) as Record<string, unknown>;
    expect(single.kind).toBe('single-link');
    expect(Object.keys(single.link as object).sort()).toEqual(['bandwidthMbps', 'delayMs']);
  });

  it('labels fields without the unit the control shows', () => {
    expect(labelOf('minRtoMs')).toBe('min RTO');
    expect(labelOf('stopWhenIdle')).toBe('stop when idle');
    expect(labelOf('bandwidthMbps')).toBe('bandwidth');
    expect(labelOf('delayedAckTimeoutMs')).toBe('delayed ACK timeout');
  });

  it('keeps text that is no number for the validator to name', () => {
    expect(parseNumberInput(' 2.5 ')).toBe(2.5);
    expect(parseNumberInput('abc')).toBe('abc');
    expect(parseNumberInput('')).toBeUndefined();
  });
});

describe('first sentences', () => {
  it('do not stop at abbreviations or inside brackets', () => {
    expect(firstSentence("E-TCP's ensemble sharing with fair tickets (Fig. 4): a transfer starts. Then more.")).toBe(
      "E-TCP's ensemble sharing with fair tickets (Fig. 4): a transfer starts.",
    );
    expect(firstSentence('As in Fig. 5 of the paper. Next.')).toBe('As in Fig. 5 of the paper.');
  });
});

describe('parameters in words', () => {
  const scenario = { schemaVersion: 1, tcp: { initialWindow: 2 }, topology: { kind: 'dumbbell', pairs: 2, bottleneck: { bandwidthMbps: 2, delayMs: 40, queue: { packets: 15 } }, access: { bandwidthMbps: 10, delayMs: 1 } }, hosts: { left0: { sharing: { scheme: 'etcp' } } } };
  it('labels a pointer from the schema, with its unit', async () => {
    const { pointerLabel } = await import('../src/data/schemaForm');
    expect(pointerLabel(root, scenario, '/topology/bottleneck/bandwidthMbps')).toBe('bottleneck bandwidth (Mb/s)');
    expect(pointerLabel(root, scenario, '/topology/bottleneck/queue/packets')).toBe('queue packets');
    expect(pointerLabel(root, scenario, '/hosts/left0/sharing/scheme')).toBe("left0's sharing scheme");
    expect(pointerLabel(root, scenario, '/hosts/*/sharing/scheme')).toBe("every host's sharing scheme");
  });
  it('starts a scheme comparison at the host that names a scheme, or every host', async () => {
    const { schemeAxis, compareParameter } = await import('../src/data/scenarioEdit');
    expect(schemeAxis(scenario as unknown as Scenario).pointer).toBe('/hosts/left0/sharing/scheme');
    const plain = schemeAxis({ schemaVersion: 1 } as unknown as Scenario);
    expect(plain.pointer).toBe('/hosts/*/sharing/scheme');
    expect(plain.scenario.hosts).toEqual({ '*': { sharing: { scheme: 'independent' } } });
    expect(compareParameter(scenario as unknown as Scenario)).toEqual({ pointer: '/topology/bottleneck/bandwidthMbps', values: [1, 2, 4] });
  });
});
