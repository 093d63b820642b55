// The scenario form's model, derived from the JSON Schema at run time: what control a schema node
// needs, which oneOf branch a value is in, what value a newly chosen branch starts from, and a
// swept parameter (a JSON Pointer into a scenario) in words.
import { parsePointer } from '@tcb-lab/sim';

export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  oneOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  required?: string[];
  items?: SchemaNode;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxLength?: number;
  title?: string;
  description?: string;
  'x-unit'?: string;
  /** On a sharing scheme: each group has one window its members draw from. */
  'x-one-window'?: boolean;
  $defs?: Record<string, SchemaNode>;
}

/** Follows $ref (within the root's $defs), merging the referring node's own annotations over it. */
export function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  let current = node;
  const seen = new Set<string>();
  while (current.$ref) {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const target = m ? root.$defs?.[m[1]] : undefined;
    if (!target) throw new Error(`unresolved $ref ${ref}`);
    const { $ref: _, ...own } = current;
    current = { ...target, ...own };
  }
  return current;
}

export type Control =
  | { kind: 'object'; properties: [string, SchemaNode][]; required: Set<string> }
  | { kind: 'map'; values: SchemaNode }
  | { kind: 'array'; items: SchemaNode; scalar: boolean }
  | { kind: 'choice'; branches: SchemaNode[] }
  | { kind: 'enum'; options: unknown[] }
  | { kind: 'const'; value: unknown }
  | { kind: 'number'; integer: boolean }
  | { kind: 'string' }
  | { kind: 'boolean' };

const typeOf = (node: SchemaNode) => (Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type);

export function controlOf(root: SchemaNode, raw: SchemaNode): Control {
  const node = resolve(root, raw);
  if (node.oneOf) return { kind: 'choice', branches: node.oneOf.map((b) => resolve(root, b)) };
  if (node.enum) return { kind: 'enum', options: node.enum };
  if ('const' in node) return { kind: 'const', value: node.const };
  const type = typeOf(node);
  if (type === 'object' || node.properties) {
    if (node.properties) {
      return { kind: 'object', properties: Object.entries(node.properties), required: new Set(node.required ?? []) };
    }
    if (typeof node.additionalProperties === 'object') return { kind: 'map', values: node.additionalProperties };
    return { kind: 'object', properties: [], required: new Set() };
  }
  if (type === 'array') {
    const items = resolve(root, node.items ?? {});
    const itemType = typeOf(items);
    return { kind: 'array', items, scalar: itemType === 'number' || itemType === 'integer' || itemType === 'string' };
  }
  if (type === 'integer' || type === 'number') return { kind: 'number', integer: type === 'integer' };
  if (type === 'boolean') return { kind: 'boolean' };
  return { kind: 'string' };
}

/** The property whose const tells the branches of a oneOf apart (type, kind, scheme), if any. */
export function discriminator(branches: SchemaNode[]): string | undefined {
  const first = branches[0]?.properties;
  if (!first) return undefined;
  return Object.keys(first).find((key) =>
    branches.every((b) => b.properties?.[key] && 'const' in (b.properties[key] as SchemaNode)),
  );
}

/** The label of a branch for a choice control. */
export function branchLabel(branch: SchemaNode, disc?: string): string {
  if (branch.title) return branch.title;
  if ('const' in branch) return String(branch.const);
  if (disc && branch.properties?.[disc]) return String(branch.properties[disc].const);
  if (branch.required?.length) return branch.required.join(' + ');
  const type = typeOf(branch);
  return type === 'integer' || type === 'number' ? 'number' : String(type ?? 'value');
}

/** Which branch of a oneOf the value belongs to; -1 when none fits (the form shows it as JSON). */
export function matchBranch(branches: SchemaNode[], value: unknown): number {
  const disc = discriminator(branches);
  return branches.findIndex((b) => {
    if ('const' in b) return value === b.const;
    const type = typeOf(b);
    if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
    if (type === 'number') return typeof value === 'number';
    if (type === 'string') return typeof value === 'string';
    if (type === 'boolean') return typeof value === 'boolean';
    if (type === 'array') return Array.isArray(value);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const v = value as Record<string, unknown>;
    if (disc) return v[disc] === b.properties?.[disc]?.const;
    return (b.required ?? []).every((key) => key in v) && Object.keys(v).every((key) => key in (b.properties ?? {}));
  });
}

/** A value that satisfies the node as far as the schema alone can tell: defaults, consts, minimums. */
export function initialValue(root: SchemaNode, raw: SchemaNode): unknown {
  const node = resolve(root, raw);
  if (node.default !== undefined) return structuredClone(node.default);
  if ('const' in node) return node.const;
  if (node.enum) return node.enum[0];
  if (node.oneOf) return initialValue(root, node.oneOf[0]);
  const type = typeOf(node);
  if (type === 'object' || node.properties) {
    const out: Record<string, unknown> = {};
    for (const key of node.required ?? []) out[key] = initialValue(root, node.properties?.[key] ?? {});
    return out;
  }
  if (type === 'array') {
    const n = node.minItems ?? 0;
    return Array.from({ length: n }, () => initialValue(root, node.items ?? {}));
  }
  if (type === 'integer' || type === 'number') {
    if (node.minimum !== undefined) return node.minimum;
    if (node.exclusiveMinimum !== undefined) return type === 'integer' ? node.exclusiveMinimum + 1 : node.exclusiveMinimum + 1;
    return 0;
  }
  if (type === 'boolean') return false;
  return '';
}

/** Text typed into a number field: a number when it parses, otherwise the text (validation names it). */
export function parseNumberInput(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** A camelCase key as a label, without the unit suffix the x-unit already shows ("delayMs" → "delay"). */
export function labelOf(key: string): string {
  const base = key.replace(/(Mbps|Ms|S|Bytes|Bps)$/, '') || key;
  return base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\b(rto|mss|ack|rtt|udp|tcp|syn|fin|html|ewma)\b/g, (w) => w.toUpperCase());
}

/** The schema node of the value at `pointer` in `doc`: oneOf branches chosen by the document's own discriminator. */
export function schemaAt(root: SchemaNode, doc: unknown, pointer: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  let value: unknown = doc;
  for (const token of parsePointer(pointer) ?? []) {
    if (!node) return undefined;
    node = resolve(root, node);
    if (node.oneOf) {
      const branches = node.oneOf.map((b) => resolve(root, b));
      const i = matchBranch(branches, value);
      node = i >= 0 ? branches[i] : undefined;
      if (!node) return undefined;
    }
    if (Array.isArray(value) || node.items) {
      node = node.items;
      value = Array.isArray(value) ? value[Number(token)] : undefined;
    } else {
      const additional: SchemaNode | undefined = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
      node = node.properties?.[token] ?? additional;
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;
    }
  }
  return node ? resolve(root, node) : undefined;
}

/**
 * A swept parameter in words, from the schema: its title (or its key as a label), the object it
 * belongs to when that says more, and its unit: "/tcp/initialWindow" reads "initial window
 * (segments)", "/hosts/left0/sharing/scheme" reads "left0's sharing scheme".
 */
export function pointerLabel(root: SchemaNode, doc: unknown, pointer: string): string {
  const tokens = parsePointer(pointer) ?? [];
  const last = tokens[tokens.length - 1];
  if (last === undefined) return pointer;
  const node = schemaAt(root, doc, pointer);
  let label = node?.title ?? labelOf(last);
  if (last === 'scheme' && tokens[tokens.length - 2] === 'sharing') label = `${tokens[tokens.length - 3] === '*' ? 'every host' : tokens[tokens.length - 3]}'s sharing scheme`;
  else if (tokens.length >= 3 || /^\d+$/.test(last)) {
    // Below a section (tcp, topology, ...), the member it belongs to says which one ("bottleneck
    // bandwidth", "queue packets"); an array index, the array.
    const parent = tokens.filter((t) => !/^\d+$/.test(t)).slice(-2, -1)[0];
    if (parent && parent !== last) label = `${labelOf(parent)} ${label}`;
  }
  const unit = node?.['x-unit'];
  return unit && !label.endsWith(unit) ? `${label} (${unit})` : label;
}
