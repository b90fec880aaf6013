/**
 * Fills an empty store with the generated demo dataset and marks the store as demo data, so
 * health and every response can say the numbers are not real results.
 */
import { generateDemo, DEMO_DEFAULT_SEED } from '../ingest/demo/generate-demo.ts';
import { importCanonical } from '../ingest/import-canonical.ts';
import type { ImportReport } from '../ingest/import-types.ts';
import { writeMeta } from '../store/store.ts';
import type { Store } from '../store/store.ts';

/** Generates the demo for today (UTC) and imports it as one canonical document. */
export async function seedDemo(
  store: Store,
  today = new Date().toISOString().slice(0, 10),
): Promise<ImportReport> {
  const document = generateDemo({ today, seed: DEMO_DEFAULT_SEED });
  const report = await importCanonical(store, document, {
    source: `demo (generated for ${today})`,
  });
  await writeMeta(store, 'demo', `generated for ${today}, seed ${DEMO_DEFAULT_SEED}`);
  return report;
}
