/**
 * Turns JSON Schema validator errors (TypeBox's compiler or Ajv, which share the shape) into
 * field errors with RFC 6901 pointers, one per offending field, worded for people.
 */
import type { FieldError } from './problem.ts';

export interface SchemaError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** RFC 6901 §3: "~" becomes "~0" and "/" becomes "~1" in a reference token. */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function names(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? [value] : [];
}

/** Maps validator errors to field errors, folding a union's per-branch noise into one line. */
export function toFieldErrors(errors: readonly SchemaError[], basePointer = ''): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const unionPaths = new Set(
    errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath ?? ''),
  );
  const allowed = new Map<string, unknown[]>();
  const types = new Map<string, string[]>();
  // A branch that failed on a bound (maxLength, pattern, minimum) had the value's type: its
  // error is the one to fix, not "must be a null" from the branch that did not.
  const bounds = new Map<string, SchemaError[]>();
  for (const e of errors) {
    const path = e.instancePath ?? '';
    if (unionPaths.has(path) && !['const', 'type', 'anyOf'].includes(e.keyword ?? '')) {
      bounds.set(path, [...(bounds.get(path) ?? []), e]);
    }
    if (e.keyword === 'const' && unionPaths.has(path)) {
      allowed.set(path, [...(allowed.get(path) ?? []), e.params?.allowedValue]);
    }
    if (e.keyword === 'type' && unionPaths.has(path)) {
      types.set(path, [...(types.get(path) ?? []), ...names(e.params?.type)]);
    }
  }
  const push = (pointer: string, detail: string) => {
    const key = `${pointer}\u0000${detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ pointer, detail });
    }
  };
  for (const e of errors) {
    const path = basePointer + (e.instancePath ?? '');
    const params = e.params ?? {};
    const extra = [...names(params.additionalProperties), ...names(params.additionalProperty)];
    if (e.keyword === 'additionalProperties' && extra.length > 0) {
      for (const name of extra) push(`${path}/${escapePointer(name)}`, `unknown field "${name}"`);
      continue;
    }
    const missing = [...names(params.requiredProperties), ...names(params.missingProperty)];
    if (e.keyword === 'required' && missing.length > 0) {
      for (const name of missing)
        push(`${path}/${escapePointer(name)}`, `required field "${name}" is missing`);
      continue;
    }
    if (unionPaths.has(e.instancePath ?? '') && e.keyword !== 'anyOf') {
      // A branch of a union failed; the union's own error below says it once.
      continue;
    }
    if (e.keyword === 'anyOf' && bounds.has(e.instancePath ?? '')) {
      for (const bound of bounds.get(e.instancePath ?? '')!)
        push(path, bound.message ?? 'is invalid');
      continue;
    }
    if (e.keyword === 'anyOf') {
      const values = allowed.get(e.instancePath ?? '') ?? [];
      const kinds = [...new Set(types.get(e.instancePath ?? '') ?? [])];
      const forms = [
        ...values.map((v) => JSON.stringify(v)),
        ...kinds.map((k) => `${/^[aeiou]/.test(k) ? 'an' : 'a'} ${k}`),
      ];
      push(
        path,
        forms.length > 0 ? `must be ${forms.join(' or ')}` : 'does not match any allowed form',
      );
      continue;
    }
    if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      push(path, `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`);
      continue;
    }
    push(path, e.message ?? 'is invalid');
  }
  return out;
}
