/**
 * GET /schema/muster-v1.schema.json: the canonical import format's JSON Schema, the document its
 * `$id` names (docs/import-formats.md#canonical-musterv1). The `$id` is a relative reference, like
 * the problem types (docs/problems.md#why-type-is-a-relative-reference): the same string in every
 * deployment, and resolved against the server a client fetched it from, it is this route.
 */
import type { FastifyInstance } from 'fastify';
import { CANONICAL_SCHEMA_ID, canonicalJsonSchema } from '../../domain/canonical-json-schema.ts';

/** JSON Schema's own media type (draft 2020-12, §9.5.1.1). */
export const SCHEMA_CONTENT_TYPE = 'application/schema+json';

/** Registers the schema document (hidden from the OpenAPI paths, like /docs). */
export function registerCanonicalSchemaRoute(app: FastifyInstance): void {
  // Generated once: the schema is fixed for the life of the process.
  const body = canonicalJsonSchema();
  app.get(CANONICAL_SCHEMA_ID, { schema: { hide: true } }, async (_request, reply) =>
    reply.type(SCHEMA_CONTENT_TYPE).header('cache-control', 'public, max-age=3600').send(body),
  );
}
