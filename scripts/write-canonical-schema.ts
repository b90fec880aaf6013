/**
 * Writes schema/muster-v1.schema.json from the TypeBox schemas the importer validates with, so
 * the published schema can never drift from the code (a test compares the two).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJsonSchema } from '../src/domain/canonical-json-schema.ts';

const path = join(import.meta.dirname, '..', 'schema', 'muster-v1.schema.json');
writeFileSync(path, canonicalJsonSchema());
console.log(`wrote ${path}`);
