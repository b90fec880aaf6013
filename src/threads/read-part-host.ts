/**
 * Reads one key range of games on a helper thread (read-part-thread.ts), so that two cores read
 * and decode the store's rows at once: at ten million games reading them is most of a load.
 */
import { startThread } from './start-thread.ts';
import type { GameKeyRange } from '../store/read-facts.ts';
import type { SnapshotPart } from '../snapshot/snapshot-part.ts';

/** The helper's young generation, as the loading thread's (load-snapshot-host.ts). */
const READER_YOUNG_GENERATION_MB = 192;

/**
 * The games of `range` in the store at `databaseUrl`, read on a helper thread; null when the
 * helper could not start or failed, so that the caller reads the range itself.
 */
export function readPartInWorker(
  databaseUrl: string,
  range: GameKeyRange,
): Promise<SnapshotPart | null> {
  return new Promise((resolve) => {
    let worker;
    try {
      worker = startThread(new URL('./read-part-thread.ts', import.meta.url), {
        workerData: { databaseUrl, range },
        resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
      });
    } catch {
      resolve(null);
      return;
    }
    worker.once('message', (part: SnapshotPart) => resolve(part));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
}
