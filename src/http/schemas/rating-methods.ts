/**
 * The rankings route's method and parameter schemas, built from the rating methods' one list
 * (src/domain/rating-methods.ts): a method added there is a `method` value and a parameter
 * object here, with its bounds, without an edit to the route.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { DEFAULT_METHOD, RATING_METHODS } from '../../domain/rating-methods.ts';
import type { MethodParameter, RatingMethodSpec } from '../../domain/rating-methods.ts';

export const MethodSchema = Type.Union(
  RATING_METHODS.map((m) => Type.Literal(m.name)),
  { description: `Rating method; default ${DEFAULT_METHOD}` },
);

/** A parameter as a request gives it: bounded, its bounds and default in its description. */
function requested(p: MethodParameter): TSchema {
  if (p.kind === 'choice') {
    return Type.Union(
      p.values.map((v) => Type.Literal(v)),
      { description: `${p.description} (default ${p.default})` },
    );
  }
  const description = `${p.description}, ${p.minimum} to ${p.maximum} (default ${p.default})`;
  const options = { minimum: p.minimum, maximum: p.maximum, description };
  return p.kind === 'integer' ? Type.Integer(options) : Type.Number(options);
}

/** A parameter as the answer echoes it, its default filled in. */
function applied(p: MethodParameter): TSchema {
  if (p.kind === 'choice') {
    return Type.Union(
      p.values.map((v) => Type.Literal(v)),
      { description: p.description },
    );
  }
  const options = { description: p.description };
  return p.kind === 'integer' ? Type.Integer(options) : Type.Number(options);
}

const fields = (m: RatingMethodSpec, schema: (p: MethodParameter) => TSchema) =>
  Object.fromEntries(Object.entries(m.parameters).map(([name, p]) => [name, schema(p)]));

/** One optional parameter object per method, named as the method, each field optional. */
export const MethodParamsProperties: Record<string, TSchema> = Object.fromEntries(
  RATING_METHODS.map((m) => [
    m.name,
    Type.Optional(
      Type.Object(
        Object.fromEntries(
          Object.entries(fields(m, requested)).map(([k, s]) => [k, Type.Optional(s)]),
        ),
        { additionalProperties: false, description: m.description },
      ),
    ),
  ]),
);

/** Every method's parameters as applied, defaults filled in. */
export const AppliedMethodParamsProperties: Record<string, TSchema> = Object.fromEntries(
  RATING_METHODS.map((m) => [
    m.name,
    Type.Object(fields(m, applied), {
      description: `${m.title} parameters, defaults filled in (used when method is ${m.name})`,
    }),
  ]),
);
