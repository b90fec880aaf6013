/**
 * Finds the memory a snapshot's typed arrays live in, so a worker thread can hand the arrays
 * over (transfer, not copy) when it posts a snapshot it built (docs/architecture.md).
 */

/** Every distinct ArrayBuffer under `value` (objects, arrays, Map values), each listed once. */
export function transferablesOf(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) found.add(v.buffer);
      return;
    }
    if (v instanceof Map) {
      for (const item of v.values()) visit(item);
      return;
    }
    if (Array.isArray(v)) {
      // Arrays of strings or numbers (player names, dictionaries) hold no buffers: skip them fast.
      if (v.length > 0 && typeof v[0] !== 'object') return;
      for (const item of v) visit(item);
      return;
    }
    for (const key of Object.keys(v)) visit((v as Record<string, unknown>)[key]);
  };
  visit(value);
  return [...found];
}
