/**
 * Content hashes of imported records (docs/import-formats.md#idempotence): equal content, equal
 * hash, so a re-import can tell unchanged records from changed ones without comparing columns.
 */
import { createHash } from 'node:crypto';

/** SHA-1 of the value's JSON with object keys sorted: equal content, equal hash. */
export function contentHash(value: unknown): string {
  const stable = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(stable);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return createHash('sha1')
    .update(JSON.stringify(stable(value)))
    .digest('hex');
}
