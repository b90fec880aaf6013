/** The snapshot a route answers from (docs/architecture.md#the-snapshot-and-its-lifecycle). */
import { ProblemError } from '../errors/problem.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { AppContext } from './app-context.ts';

/** The snapshot to answer from, or 503 until the first one has loaded. */
export function requireSnapshot(ctx: AppContext): Snapshot {
  const snapshot = ctx.snapshots?.current() ?? null;
  if (snapshot === null) {
    throw new ProblemError('not-ready', 'the statistics snapshot is still loading; retry shortly', {
      headers: { 'retry-after': '2' },
    });
  }
  return snapshot;
}
