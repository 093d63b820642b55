// JSON Pointers (RFC 6901) with the rules of sim-core's experiments and grids, for the TypeScript
// side (the service, the dashboard, the benchmarks). It is the twin of
// sim-core/json/json_pointer.cc: both pass the cases in
// sim-core/json/json_pointer_cases.json. It stays TypeScript rather than a call into the
// module because the dashboard edits scenarios synchronously, while the module lives in a worker.

/** A JSON value, as JSON.parse returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The pointer's decoded reference tokens ("/a~1b/0" -> ["a/b", "0"]), or undefined when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    // RFC 6901 §3: '~' must be followed by 0 or 1; §4: ~1 decodes before ~0 ("~01" is "~1").
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return tokens;
}

/** The pointer of `tokens` (RFC 6901 §3: '~' as ~0, '/' as ~1). */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + String(t).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** An array index token: "0", or digits without a leading zero (RFC 6901 §4). */
export function pointerIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return 'not an object or array';
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Sets `value` at `pointer` in `document`, in place, as an experiment's or a grid's set does: the
 * parent must exist; an object gains or replaces the last key, an array replaces the element at an
 * existing index. Returns undefined on success, otherwise the problem in words, the document untouched.
 */
export function setAtPointer(document: unknown, pointer: string, value: unknown): string | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens || tokens.length === 0) return 'not a JSON Pointer to a member';
  let node = document as Json;
  let at = '';
  for (const [i, token] of tokens.entries()) {
    const last = i + 1 === tokens.length;
    const where = at === '' ? 'the scenario' : at;
    if (isObject(node)) {
      if (last) {
        node[token] = value as Json;
        return undefined;
      }
      if (!Object.hasOwn(node, token)) return `${where} has no "${token}"`;
      node = node[token];
    } else if (Array.isArray(node)) {
      const index = pointerIndex(token);
      if (index === undefined) return `${where} is an array; "${token}" is not an index`;
      if (index >= node.length) {
        return `${where} has ${node.length} element${node.length === 1 ? '' : 's'}; index ${token} is out of range`;
      }
      if (last) {
        node[index] = value as Json;
        return undefined;
      }
      node = node[index];
    } else {
      return `${where} is ${typeName(node)}, not an object or array`;
    }
    at += toPointer([token]);
  }
  return undefined;
}

/**
 * The value at `pointer` in a run summary, or undefined when there is none. As sim-core's
 * FindInSummary: inside an array, a token that is not an index selects the first element whose
 * "name" it is ("/links/bottleneck:router0>router1/utilization").
 */
export function findInSummary(summary: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  let node: unknown = summary;
  for (const token of tokens) {
    if (isObject(node)) {
      if (!Object.hasOwn(node, token)) return undefined;
      node = node[token];
    } else if (Array.isArray(node)) {
      const index = pointerIndex(token);
      node = index !== undefined ? node[index] : node.find((e) => isObject(e) && e.name === token);
      if (node === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * Path of member `key` under `parent` in the CLI's notation: "$.name" for identifier-like keys,
 * "$['odd key']" otherwise, with ' and \ escaped and control characters as \u00XX (as
 * sim-core/json/json_pointer.cc's JsonPathChild).
 */
export function jsonPathChild(parent: string, key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `${parent}.${key}`;
  const escaped = key.replace(/['\\]/g, '\\$&').replace(/[\x00-\x1f]/g, (c) => '\\u00' + c.charCodeAt(0).toString(16).padStart(2, '0'));
  return `${parent}['${escaped}']`;
}

/**
 * The JSONPath of `pointer` inside `document` in the CLI's notation ("/traffic/0/to" ->
 * "$.traffic[0].to"): a token is an index where the document has an array, a key otherwise.
 */
export function pointerToJsonPath(document: unknown, pointer: string): string {
  let path = '$';
  let node: unknown = document;
  for (const token of parsePointer(pointer) ?? []) {
    const index = pointerIndex(token);
    if (Array.isArray(node) && index !== undefined) {
      path += `[${index}]`;
      node = node[index];
      continue;
    }
    path = jsonPathChild(path, token);
    node = isObject(node) && Object.hasOwn(node, token) ? node[token] : undefined;
  }
  return path;
}

/**
 * The pointer of a path in the CLI's notation (`$.traffic[0].to`, `$.hosts['left 0'].sharing`), read
 * leniently as people type it (`$.hosts.left-0`, `["key"]`); '' for '$' or a path it cannot read.
 */
export function jsonPathToPointer(path: string): string {
  if (!path.startsWith('$')) return '';
  const tokens: string[] = [];
  const part = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  part.lastIndex = 1;
  let m: RegExpExecArray | null;
  while (part.lastIndex < path.length && (m = part.exec(path))) {
    const quoted = (m[3] ?? m[4])?.replace(/\\u00([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1');
    tokens.push(m[1] ?? m[2] ?? quoted!);
  }
  return toPointer(tokens);
}
