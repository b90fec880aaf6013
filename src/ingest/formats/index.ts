/**
 * Every import format, listed once (docs/architecture.md#adding-an-import-format): `muster
 * import --format` takes these names, its help lists them in this order, and a test checks that
 * docs/import-formats.md has a section for each. The first is the default.
 */
import type { ImportFormatSpec } from '../import-format.ts';
import { bcpFormat } from './bcp/bcp-format.ts';
import { canonicalFormat } from './canonical/canonical-format.ts';
import { csvFormat } from './csv/csv-format.ts';
import { ndjsonFormat } from './ndjson/ndjson-format.ts';
import { rosterFormat } from './roster/roster-format.ts';
import { t9aFormat } from './t9a/t9a-format.ts';

export const IMPORT_FORMATS: readonly ImportFormatSpec[] = [
  canonicalFormat,
  ndjsonFormat,
  csvFormat,
  t9aFormat,
  bcpFormat,
  rosterFormat,
];

/** The format named `name`, or undefined. */
export function importFormatNamed(name: string): ImportFormatSpec | undefined {
  return IMPORT_FORMATS.find((format) => format.name === name);
}

/**
 * The format `muster import` reads `paths` in when `--format` is not given: the streamed format
 * whose extension every named file has (`.ndjson`, `.csv`), else canonical
 * (docs/import-formats.md). A folder or standard input keeps the default.
 */
export function formatOfPaths(paths: readonly string[]): ImportFormatSpec {
  const canonical = importFormatNamed('canonical')!;
  const byExtension = (path: string) =>
    IMPORT_FORMATS.find(
      (f) => f.streamed && f.extension !== null && path.toLowerCase().endsWith(f.extension),
    );
  const first = paths.length > 0 ? byExtension(paths[0]) : undefined;
  return first !== undefined && paths.every((path) => byExtension(path) === first)
    ? first
    : canonical;
}
