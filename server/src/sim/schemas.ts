// sim-core's JSON Schemas, read from sim-core/scenario/schema/ when the server starts: the single
// source of truth for scenarios and results. The API serves them, the OpenAPI document embeds
// them, and metric units come from them; nothing here copies a field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePointer } from '@tcb-lab/sim/json-pointer';
import { repoRoot } from '../config.js';

export type JsonSchema = Record<string, unknown>;

const schemaDir = join(repoRoot, 'sim-core/scenario/schema');

function load(file: string): JsonSchema {
  return JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as JsonSchema;
}

type SimSchemas = { scenario: JsonSchema; result: JsonSchema; experiment: JsonSchema; report: JsonSchema };
let cache: SimSchemas | undefined;

export function simSchemas(): SimSchemas {
  cache ??= {
    scenario: load('scenario.schema.json'),
    result: load('result.schema.json'),
    experiment: load('experiment.schema.json'),
    report: load('report.schema.json'),
  };
  return cache;
}

/** The tokens of a local $ref ("#/$defs/a~1b": a percent-encoded JSON Pointer, RFC 6901 §6). */
function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  try {
    return parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined; // A malformed percent-escape.
  }
}

/** The subschema a JSON Pointer into a document reaches, following local $refs. */
export function subschemaAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  const resolve = (s: JsonSchema | undefined): JsonSchema | undefined => {
    let current = s;
    for (let guard = 0; current && typeof current.$ref === 'string' && guard < 32; ++guard) {
      current = refTokens(current.$ref)?.reduce<unknown>((n, key) => (n as Record<string, unknown> | undefined)?.[key], schema) as
        | JsonSchema
        | undefined;
    }
    return current;
  };
  let node: JsonSchema | undefined = schema;
  for (const key of tokens) {
    node = resolve(node);
    const properties = node?.properties as Record<string, JsonSchema> | undefined;
    node = properties?.[key];
  }
  return resolve(node);
}

/**
 * A copy of `schema` whose local references ("#/$defs/x") point into the OpenAPI document at
 * `base` ("#/components/schemas/Scenario"), with $schema and $id dropped.
 */
export function rebaseSchema(schema: JsonSchema, base: string): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema' || key === '$id') continue;
      out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? base + value.slice(1) : walk(value);
    }
    return out;
  };
  return walk(schema) as JsonSchema;
}
