// sim-core's schemas as the service reads them: subschemaAt follows a JSON Pointer into a document
// (RFC 6901 tokens, decoded by @tcb-lab/sim/json-pointer's parsePointer) through local $refs, as
// metric units are found at their pointers into result.schema.json.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simSchemas, subschemaAt, type JsonSchema } from '../src/sim/schemas.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    'a/b': { type: 'number', 'x-unit': 's' },
    'c~d': { $ref: '#/$defs/c~1d' },
    plain: { $ref: '#/$defs/with%20space' },
  },
  $defs: {
    'c/d': { type: 'object', properties: { e: { type: 'integer', 'x-unit': 'B' } } },
    'with space': { type: 'string' },
  },
};

test('tokens are decoded as RFC 6901 says (~1 is /, ~0 is ~), in pointers and $ref fragments', () => {
  assert.equal(subschemaAt(schema, '/a~1b')?.['x-unit'], 's');
  assert.equal(subschemaAt(schema, '/c~0d/e')?.['x-unit'], 'B');
  assert.equal(subschemaAt(schema, '/plain')?.type, 'string', 'a percent-encoded fragment');
  assert.equal(subschemaAt(schema, '/a/b'), undefined, '"a/b" is one key, not two');
  assert.equal(subschemaAt(schema, 'a~1b'), undefined, 'not a pointer');
  assert.equal(subschemaAt(schema, ''), schema, 'the whole document');
});

test('every metric the service reports has its schema in result.schema.json', () => {
  for (const pointer of ['/run/meanCompletionTimeS', '/run/fairness/jainIndex', '/run/pages/meanHtmlTimeS']) {
    assert.ok(subschemaAt(simSchemas().result, pointer), pointer);
  }
});
