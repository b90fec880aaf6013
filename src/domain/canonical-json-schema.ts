/** The canonical format's JSON Schema (draft 2020-12) as published in schema/. */
import { CanonicalDocumentSchema } from './canonical-schema.ts';

/**
 * The schema's `$id`: a relative reference with a full path, the same in every deployment, which
 * resolves against the server it came from to the route that serves it
 * (docs/import-formats.md#canonical-musterv1).
 */
export const CANONICAL_SCHEMA_ID = '/schema/muster-v1.schema.json';

export function canonicalJsonSchema(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CANONICAL_SCHEMA_ID,
    ...JSON.parse(JSON.stringify(CanonicalDocumentSchema)),
  };
  return JSON.stringify(schema, null, 2) + '\n';
}
