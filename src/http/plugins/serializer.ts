/**
 * Response serialisation (docs/http-api.md#the-envelope): fast-json-stringify, as Fastify uses by
 * default, compiled from each route's own response schema rewritten into an equivalent form it
 * can serialise without validating. fast-json-stringify resolves every `anyOf` by validating the
 * value against each branch with Ajv, at every occurrence ("anyOf and oneOf" in its README);
 * on the statistics answers, whose nullable fields are `anyOf [X, null]`, that was half of the
 * serialisation time. The OpenAPI document and request validation keep the schemas as written.
 */
import fastJson from 'fast-json-stringify';
import type { Options, Schema } from 'fast-json-stringify';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `anyOf [X, {type: null}]` with X of one named type: X with `type: [its type, 'null']`. */
function nullableOf(members: readonly unknown[]): Node | null {
  if (members.length !== 2 || !members.every(isNode)) return null;
  const nulls = members.filter((m) => m.type === 'null' && Object.keys(m).length === 1);
  const other = members.find((m) => m.type !== 'null');
  if (nulls.length !== 1 || other === undefined || typeof other.type !== 'string') return null;
  return { ...other, type: [other.type, 'null'] };
}

/** `anyOf` of string constants: a string `enum`. */
function enumOf(members: readonly unknown[]): Node | null {
  if (members.length === 0 || !members.every(isNode)) return null;
  const values = members.map((m) => m.const);
  if (!values.every((v) => typeof v === 'string')) return null;
  if (!members.every((m) => Object.keys(m).every((k) => k === 'const' || k === 'type')))
    return null;
  return { type: 'string', enum: values };
}

/**
 * The schema with every nullable `anyOf` turned into a type array and every union of string
 * constants into an enum; other keywords (descriptions included) are kept as they are.
 */
export function serializableSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializableSchema);
  if (!isNode(schema)) return schema;
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) out[key] = serializableSchema(value);
  if (!Array.isArray(out.anyOf)) return out;
  const simpler = nullableOf(out.anyOf) ?? enumOf(out.anyOf);
  if (simpler === null) return out;
  const { anyOf: _replaced, ...rest } = out;
  return { ...simpler, ...rest, type: simpler.type };
}

/**
 * What a serialiser is compiled from, as plain data that can be posted to an engine thread:
 * the response schema and the shared schemas, each rewritten, and fast-json-stringify's options.
 */
export interface SerialiserSpec {
  readonly schema: unknown;
  readonly shared: Record<string, unknown>;
  readonly options: Record<string, unknown>;
}

/**
 * The spec of the serialiser Fastify compiles for `schema` with `externalSchemas` and
 * `options` (buildSerializer's arguments): compiled anywhere, it writes the same bytes
 * (docs/architecture.md#engine-thread).
 */
export function serialiserSpec(
  schema: unknown,
  externalSchemas: unknown,
  options: unknown,
): SerialiserSpec {
  return {
    schema: serializableSchema(schema),
    shared: sharedOf(externalSchemas),
    options: optionsOf(options),
  };
}

/** Compiles `spec` with fast-json-stringify on this thread (docs/architecture.md#engine-thread). */
export function compileSerialiser(spec: SerialiserSpec): (data: unknown) => string {
  return fastJson(spec.schema as Schema, { ...spec.options, schema: spec.shared } as Options);
}

function sharedOf(externalSchemas: unknown): Record<string, unknown> {
  return isNode(externalSchemas)
    ? Object.fromEntries(
        Object.entries(externalSchemas).map(([id, schema]) => [id, serializableSchema(schema)]),
      )
    : {};
}

const optionsOf = (options: unknown): Record<string, unknown> => (isNode(options) ? options : {});

/**
 * The serializer factory Fastify's schema controller takes (Fastify "Validation and
 * Serialization", schemaController.compilersFactory): like its default, fast-json-stringify with
 * the shared schemas (`$ref` targets such as the problem document), each schema rewritten.
 */
export function buildSerializer(
  externalSchemas: unknown,
  options: unknown,
): (route: { schema?: unknown }) => (data: unknown) => string {
  const shared = sharedOf(externalSchemas);
  const base = optionsOf(options);
  // What else a serialiser is compiled from, as text: an app built again compiles its schemas
  // with equal shared schemas and options, and reuses what the last one compiled.
  const context = JSON.stringify([shared, base], (_key, value: unknown) =>
    typeof value === 'function' ? String(value) : value,
  );
  return ({ schema }) => {
    if (!isNode(schema)) {
      return compileSerialiser({ schema: serializableSchema(schema), shared, options: base });
    }
    let byContext = bySchema.get(schema);
    if (byContext === undefined) bySchema.set(schema, (byContext = new Map()));
    let serialiser = byContext.get(context);
    if (serialiser === undefined) {
      // A small schema object made per route (the problem document's `$ref` under every error
      // status) is found by its text; a large one is a module constant, found by identity.
      const text = JSON.stringify(schema);
      const key = text.length <= SMALL_SCHEMA ? `${context}\u0000${text}` : null;
      serialiser = key === null ? undefined : byText.get(key);
      if (serialiser === undefined) {
        serialiser = compileSerialiser({
          schema: serializableSchema(schema),
          shared,
          options: base,
        });
        if (key !== null) byText.set(key, serialiser);
      }
      byContext.set(context, serialiser);
    }
    return serialiser;
  };
}

type Serialiser = (data: unknown) => string;

/**
 * Serialisers compiled in this process, by route schema object (most are module constants),
 * then by the shared schemas and options they were compiled with; small ones also by the text of
 * both. Compiling them was a third of building an app, and a test file builds dozens.
 */
const bySchema = new WeakMap<object, Map<string, Serialiser>>();
const byText = new Map<string, Serialiser>();
const SMALL_SCHEMA = 2048;
