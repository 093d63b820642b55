// The scenario schema, imported at build time from sim-core (the one source of truth), and what
// the pages read from it.
import schemaJson from '@schema/scenario.schema.json';
import type { SchemaNode } from './data/schemaForm';

export const scenarioSchema = schemaJson as unknown as SchemaNode;

/** The sharing schemes the schema knows, in its order. */
export const schemeNames: string[] = (scenarioSchema.$defs?.sharing?.oneOf ?? [])
  .map((b) => String((b.properties?.scheme as SchemaNode | undefined)?.const ?? ''))
  .filter(Boolean);

/**
 * Schemes whose group has one window that its members draw from (their share is what they have in
 * flight): those the schema marks x-one-window.
 */
export const oneWindowSchemes: ReadonlySet<string> = new Set(
  (scenarioSchema.$defs?.sharing?.oneOf ?? []).filter((b) => b['x-one-window']).map((b) => String((b.properties?.scheme as SchemaNode | undefined)?.const ?? '')),
);
