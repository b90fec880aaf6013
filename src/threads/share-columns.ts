/**
 * Moves a snapshot's columns onto shared memory (docs/architecture.md#engine-thread). A typed
 * array on a SharedArrayBuffer is shared, not copied, when posted to another thread, so every
 * thread that answers from the snapshot (the serving thread, the engine thread) reads one copy
 * of its columns, whatever its size.
 */

type View = ArrayBufferView & {
  constructor: new (buffer: ArrayBufferLike, offset: number, length: number) => ArrayBufferView;
};

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Array.isArray(value));

/**
 * Replaces, in place, every typed array under `value` (plain objects and arrays, not Map
 * contents) with a view of the same type on shared memory, each distinct buffer copied once so
 * views that shared memory before still do. Returns `value`.
 */
export function shareColumns<T extends object>(value: T): T {
  const shared = new Map<ArrayBufferLike, SharedArrayBuffer>();
  const share = (view: View): ArrayBufferView => {
    let buffer = shared.get(view.buffer);
    if (buffer === undefined) {
      buffer = new SharedArrayBuffer(view.buffer.byteLength);
      new Uint8Array(buffer).set(new Uint8Array(view.buffer));
      shared.set(view.buffer, buffer);
    }
    const bytesPer = (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    return new view.constructor(buffer, view.byteOffset, view.byteLength / bytesPer);
  };
  const seen = new Set<object>();
  const visit = (node: Record<string, unknown>): void => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (ArrayBuffer.isView(child) && !(child instanceof DataView)) {
        if (!(child.buffer instanceof SharedArrayBuffer)) node[key] = share(child as View);
      } else if (isPlain(child)) visit(child);
    }
  };
  if (isPlain(value)) visit(value);
  return value;
}
