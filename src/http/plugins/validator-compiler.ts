/**
 * Request validation (docs/http-api.md#errors): TypeBox's compiled checks, as
 * @fastify/type-provider-typebox compiles them, kept per route schema for the life of the
 * process. The route schemas are module constants, so an app built again in the same process (a
 * test file builds dozens) reuses each check instead of compiling it again: compiling them took
 * about a fifth of building an app (69 of 303 ms of CPU, docs/operations.md#tests).
 */
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';

type Compile = typeof TypeBoxValidatorCompiler;
type Validator = ReturnType<Compile>;

/** Each schema's check by the part of the request it checks (body checks do not convert). */
const compiled = new WeakMap<object, Map<string, Validator>>();

/**
 * Fastify's validatorCompiler (Fastify "Validation and Serialization"): TypeBox's check of
 * `schema`, compiled once per schema object and part of the request.
 */
export const cachedValidatorCompiler: Compile = (route) => {
  const { schema, httpPart = '' } = route;
  if (typeof schema !== 'object' || schema === null) return TypeBoxValidatorCompiler(route);
  let byPart = compiled.get(schema);
  if (byPart === undefined) compiled.set(schema, (byPart = new Map()));
  let validator = byPart.get(httpPart);
  if (validator === undefined) byPart.set(httpPart, (validator = TypeBoxValidatorCompiler(route)));
  return validator;
};
