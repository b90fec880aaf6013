/**
 * The one rule for the links Muster keeps and shows (an event's `url` and `registrationUrl`):
 * an absolute http or https URL (docs/import-formats.md#links). Anything else, `javascript:`,
 * `vbscript:` or `data:` above all, runs or shows content when a person follows it.
 */

const HTTP_START = /^https?:\/\//i;

/**
 * True for an absolute http(s) URL written as such (WHATWG URL): the text itself starts with the
 * scheme, because the URL parser drops leading blanks and inner tabs and line breaks, so
 * " javascript:…" or "java\tscript:…" parse to a scheme the text does not show.
 */
export function isHttpUrl(text: string): boolean {
  if (!HTTP_START.test(text)) return false;
  try {
    const { protocol, hostname } = new URL(text);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}

/** The link when it is an http(s) URL, else null: stored data is shown only through this. */
export function httpUrlOrNull(text: string | null | undefined): string | null {
  return typeof text === 'string' && isHttpUrl(text) ? text : null;
}
