/**
 * The web client's own paths (docs/operations.md#web-client): served by its route and left out of
 * the rate limit, so one module below both names them.
 */

/** True for the client's own paths, which the rate limit leaves out (a page view loads several). */
export function isWebClientPath(url: string): boolean {
  return (
    url === '/' || url === '/index.html' || url === '/favicon.svg' || url.startsWith('/assets/')
  );
}
