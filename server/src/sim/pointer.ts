// JSON Pointers (RFC 6901) into scenario documents, with the rules of sim-core's experiments
// (sim-core/experiment/json_pointer.cc, whose messages these are): a set replaces or adds a member
// whose parent exists, and replaces an array element whose index is in range; nothing is created
// on the way.

/** The pointer's reference tokens, or undefined when it is not a JSON Pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    // RFC 6901 §3: only ~0 and ~1 are escapes; ~1 decodes before ~0.
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return tokens;
}

function encode(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Sets `value` at `pointer` in `document` (in place). Returns undefined on success, otherwise
 * why not, leaving the document untouched.
 */
export function setAtPointer(document: unknown, pointer: string, value: unknown): string | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens || tokens.length === 0) return 'not a JSON Pointer to a member';
  let node = document as Json;
  let at = '';
  for (let i = 0; i < tokens.length; ++i) {
    const token = tokens[i];
    const last = i + 1 === tokens.length;
    const where = at === '' ? 'the scenario' : at;
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      if (last) {
        node[token] = value as Json;
        return undefined;
      }
      if (!Object.hasOwn(node, token)) return `${where} has no "${token}"`;
      node = node[token];
    } else if (Array.isArray(node)) {
      const index = arrayIndex(token);
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
    at += '/' + encode(token);
  }
  return undefined;
}

/** The value at `pointer`, or undefined when there is none. */
export function getAtPointer(document: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  let node: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      const index = arrayIndex(token);
      if (index === undefined || index >= node.length) return undefined;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** A JSON path in the CLI's notation for a member key: `.name` when it is an identifier, else `['key']`. */
export function memberPath(parent: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${parent}.${key}` : `${parent}['${key.replaceAll("'", "\\'")}']`;
}
