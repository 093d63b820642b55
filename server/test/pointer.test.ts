// JSON Pointers as batches use them: the rules and messages of sim-core's experiments
// (sim-core/experiment/json_pointer_test.cc has the same cases for the C++ side).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getAtPointer, memberPath, parsePointer, setAtPointer } from '../src/sim/pointer.js';
import { jsonPath } from '../src/app.js';

test('parses and unescapes tokens (RFC 6901 §3)', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/a/0'), ['a', '0']);
  assert.deepEqual(parsePointer('/a~1b/~01'), ['a/b', '~1']);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.equal(parsePointer('a/b'), undefined);
  assert.equal(parsePointer('/a~2'), undefined);
  assert.equal(parsePointer('/a~'), undefined);
});

test('a set replaces or adds under an existing parent', () => {
  const doc: any = { tcp: { flavor: 'reno' }, traffic: [{ count: 1 }, { count: 2 }] };
  assert.equal(setAtPointer(doc, '/tcp/flavor', 'sack'), undefined);
  assert.equal(doc.tcp.flavor, 'sack');
  assert.equal(setAtPointer(doc, '/tcp/mssBytes', 1000), undefined);
  assert.equal(doc.tcp.mssBytes, 1000);
  assert.equal(setAtPointer(doc, '/traffic/1/count', 8), undefined);
  assert.equal(doc.traffic[1].count, 8);
  assert.equal(setAtPointer(doc, '/hosts', { '*': { sharing: { scheme: 'tcp-int' } } }), undefined);
  assert.equal(doc.hosts['*'].sharing.scheme, 'tcp-int');
  assert.equal(setAtPointer(doc, '/a~1b', 1), undefined);
  assert.equal(doc['a/b'], 1);
});

test('a set refuses missing parents and bad indices, with the experiments\' messages', () => {
  const doc = { tcp: { flavor: 'reno' }, durationS: 5, traffic: [{ count: 1 }] };
  const before = structuredClone(doc);
  assert.equal(setAtPointer(doc, '/topology/pairs', 2), 'the scenario has no "topology"');
  assert.equal(setAtPointer(doc, '/tcp/x/y', 2), '/tcp has no "x"');
  assert.equal(setAtPointer(doc, '/traffic/1/count', 2), '/traffic has 1 element; index 1 is out of range');
  assert.equal(setAtPointer(doc, '/traffic/-', {}), '/traffic is an array; "-" is not an index');
  assert.equal(setAtPointer(doc, '/durationS/x', 2), '/durationS is a number, not an object or array');
  assert.equal(setAtPointer(doc, '', 2), 'not a JSON Pointer to a member');
  assert.deepEqual(doc, before, 'a refused set leaves the document alone');
});

test('reads values, and writes JSON paths in the CLI\'s notation', () => {
  const summary = { run: { pages: { meanHtmlTimeS: null, completed: 3 } } };
  assert.equal(getAtPointer(summary, '/run/pages/completed'), 3);
  assert.equal(getAtPointer(summary, '/run/pages/meanHtmlTimeS'), null);
  assert.equal(getAtPointer(summary, '/run/nothing'), undefined);
  assert.equal(memberPath('$', 'scenario'), '$.scenario');
  assert.equal(memberPath('$.grid', '/tcp/flavor'), "$.grid['/tcp/flavor']");
  assert.equal(jsonPath('/grid/~1tcp~1flavor/0'), "$.grid['/tcp/flavor'][0]");
  assert.equal(jsonPath(''), '$');
});
