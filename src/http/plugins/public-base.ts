/**
 * The base the discovery documents name for this API (docs/operations.md#public-url):
 * MUSTER_PUBLIC_URL when it is set, otherwise nothing, so that they give paths relative to where
 * they were fetched. The request's Host header is never used: any client may send any Host, and
 * a document naming it would send the next reader (or a shared cache's) to that host.
 */
import type { Config } from '../../config/config.ts';

/** The absolute base URL without a trailing slash, or '' for paths relative to the document. */
export function publicBase(config: Config): string {
  return config.publicUrl ?? '';
}
