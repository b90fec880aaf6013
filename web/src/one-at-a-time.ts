/**
 * The page's long computations in a line (docs/http-api.md#limits): a table forecast and an
 * event projection are each one of the service's expensive requests, of which it lets one client
 * run only a few at once, so a page asks for them one after another instead of all together.
 */
let queue: Promise<unknown> = Promise.resolve();

/** Runs `load` once every load queued before it has settled. */
export function oneAtATime<T>(load: () => Promise<T>): Promise<T> {
  const next = queue.then(load, load);
  queue = next.catch(() => undefined);
  return next;
}
