// The TypeScript JSON Pointer rules pass the same cases as sim-core's (json_pointer_test.cc):
// sim-core/json/json_pointer_cases.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  findInSummary,
  jsonPathChild,
  jsonPathToPointer,
  parsePointer,
  pointerToJsonPath,
  setAtPointer,
  toPointer,
} from '@tcb-lab/sim/json-pointer';

const cases = JSON.parse(readFileSync(new URL('../../sim-core/json/json_pointer_cases.json', import.meta.url), 'utf8'));

test('parses pointers, and writes tokens back to the same pointer', () => {
  for (const c of cases.parse) {
    assert.deepEqual(parsePointer(c.pointer), c.tokens ?? undefined, c.pointer);
    if (c.tokens) assert.equal(toPointer(c.tokens), c.pointer);
  }
});

test('sets as experiments and grids do, refusing with the same words', () => {
  for (const c of cases.set) {
    const doc = structuredClone(cases.setDocument);
    const problem = setAtPointer(doc, c.pointer, structuredClone(c.value));
    assert.equal(problem, c.problem, c.pointer);
    assert.deepEqual(doc, c.document ?? cases.setDocument, c.pointer);
  }
});

test('finds values in run summaries, elements of arrays by name', () => {
  for (const c of cases.find) {
    assert.deepEqual(findInSummary(cases.findDocument, c.pointer), 'value' in c ? c.value : undefined, c.pointer);
  }
});

test("writes a pointer as the CLI's JSONPath, and reads it back", () => {
  for (const c of cases.path) {
    assert.equal(pointerToJsonPath(cases.pathDocument, c.pointer), c.path, c.pointer);
    assert.equal(jsonPathToPointer(c.path), c.pointer, c.path);
  }
  assert.equal(jsonPathChild('$', 'scenario'), '$.scenario');
});
