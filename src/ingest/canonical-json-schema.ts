/** The canonical format's JSON Schema (draft 2020-12) as published in schema/. */
import { CanonicalDocumentSchema } from './canonical-schema.ts';

export function canonicalJsonSchema(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...JSON.parse(JSON.stringify(CanonicalDocumentSchema)),
  };
  return JSON.stringify(schema, null, 2) + '\n';
}
