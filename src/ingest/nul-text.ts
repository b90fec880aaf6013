/**
 * NUL characters (U+0000) in imported text (docs/import-formats.md#nul-characters). PostgreSQL
 * cannot keep a NUL in a text column and refuses the whole statement, so one NUL would cost a
 * batch every valid record; SQLite keeps it, and an export of such a store would then fail to
 * import into PostgreSQL. A record with a NUL in any of its strings is therefore rejected alone
 * on both backends, and the texts a reject itself stores never carry one.
 */
import type { Reject } from '../domain/import-batch.ts';

/** Why a record with a NUL is rejected, the same in every format. */
export const NUL_REASON =
  'text holds a NUL character (U+0000), which the store cannot keep: remove it and import again';

const NUL = '\u0000';

/** A JSON Pointer segment (RFC 6901), with any NUL written out so the pointer is storable. */
const segment = (key: string) =>
  key.replace(/~/g, '~0').replace(/\//g, '~1').replaceAll(NUL, '\\u0000');

/**
 * The JSON Pointer of the first string (or object key) in `value` that holds a NUL, or null when
 * none does. Keys in `skip` are not looked into at the top level (an event's entries and games,
 * which are records of their own).
 */
export function nulPointer(value: unknown, skip?: ReadonlySet<string>): string | null {
  // Every record of every import passes here: the pointer is built only when there is a NUL.
  return hasNul(value, skip) ? find(value, '', skip) : null;
}

function hasNul(value: unknown, skip?: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasNul(value[i])) return true;
    return false;
  }
  for (const key in value) {
    if (skip?.has(key)) continue;
    if (key.includes(NUL) || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function find(value: unknown, at: string, skip?: ReadonlySet<string>): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? at || '/' : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i], `${at}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key in value) {
    if (skip?.has(key)) continue;
    if (key.includes(NUL)) return `${at}/${segment(key)}`;
    const found = find((value as Record<string, unknown>)[key], `${at}/${segment(key)}`);
    if (found !== null) return found;
  }
  return null;
}

/** `text` with every NUL written out as `\u0000`, so it can be stored and read. */
export function withoutNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, '\\u0000') : text;
}

/**
 * A reject whose texts (source, record, field, reason) hold no NUL: a reason may quote the input
 * (a parser's message, an unknown id). The payload is stored as JSON, which escapes a NUL itself.
 */
export function storableReject(r: Reject): Reject {
  const texts = [r.source, r.record, r.field, r.reason];
  if (!texts.some((t) => t !== null && t.includes(NUL))) return r;
  return {
    ...r,
    source: withoutNul(r.source),
    record: r.record === null ? null : withoutNul(r.record),
    field: r.field === null ? null : withoutNul(r.field),
    reason: withoutNul(r.reason),
  };
}
