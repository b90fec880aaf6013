/**
 * Imports one in-memory canonical document: the API the demo seeder and tests use; files go
 * through importSources.
 */
import type { Store } from '../store/store.ts';
import { canonicalToRaw } from './formats/canonical/canonical-adapter.ts';
import type { ImportReport } from './import-types.ts';
import { runImport } from './run-import.ts';

/** docs/import-formats.md#canonical-musterv1, for a document already parsed. */
export async function importCanonical(
  store: Store,
  document: unknown,
  options: { source?: string; strict?: boolean } = {},
): Promise<ImportReport> {
  const source = options.source ?? 'document';
  return runImport(store, canonicalToRaw(document, source), {
    format: 'canonical',
    sources: [source],
    strict: options.strict,
  });
}
