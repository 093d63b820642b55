// Freeing a superseded run's columns at once. React keeps the props and memoised values of the
// previous render on its alternate fibres until each component renders again, so a run replaced by
// a re-run stays reachable, with every column of its trace and series and the plot columns derived
// from it (dumbbell-bulk: about 400 MiB per run). Releasing a run detaches the buffers of its typed
// arrays and of the values registered as derived from it: the objects stay, their columns empty.

const dependents = new WeakMap<object, object[]>();

/** Registers `derived` (plot columns computed from `run`) to be released with it. */
export function derivedFrom<T extends object>(run: object, derived: T): T {
  const list = dependents.get(run);
  if (list) list.push(derived);
  else dependents.set(run, [derived]);
  return derived;
}

/** Detaches every typed array's buffer reachable from `value` through plain objects and arrays. */
function detachAll(value: unknown, seen: Set<unknown>) {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    if (buffer instanceof ArrayBuffer && buffer.byteLength > 0 && !seen.has(buffer)) {
      seen.add(buffer);
      // ES2024's ArrayBuffer.prototype.transfer(0) detaches the buffer and frees its storage; where
      // it is missing, a structured clone that takes the buffer over does (the clone is dropped).
      const b = buffer as ArrayBuffer & { transfer?(n: number): ArrayBuffer };
      if (b.transfer) b.transfer(0);
      else structuredClone(b, { transfer: [b] });
    }
    return;
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) detachAll(v, seen);
}

/**
 * Releases a run no view shows any more: its typed arrays and those of everything registered as
 * derived from it become empty. Call only once nothing will draw from it again.
 */
export function releaseRun(run: object) {
  const seen = new Set<unknown>();
  for (const d of dependents.get(run) ?? []) detachAll(d, seen);
  dependents.delete(run);
  detachAll(run, seen);
}

/**
 * Releases part of a run that is still shown (its typed arrays become empty), once what is drawn
 * from it has been derived and nothing will read it again.
 */
export function releaseColumns(part: object | undefined) {
  if (part) detachAll(part, new Set());
}
