/**
 * What the log line of each snapshot load says besides its status
 * (docs/operations.md#watching-a-folder): the snapshot file it was read from, and when each
 * step of the load ended, so a slow reload shows where its time went.
 */
import { phaseOffsets } from '../snapshot/load-phases.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';

/** The log fields of the load of `snapshot` (none for null). */
export function loadLogFields(snapshot: Snapshot | null): Record<string, unknown> {
  if (snapshot === null) return {};
  const { restoredFrom: file, loadPhases: phases, loadCpuMs } = snapshot;
  return {
    ...(file === undefined ? {} : { snapshotFile: file }),
    ...(phases === undefined
      ? {}
      : {
          // Milliseconds after the reload started that each of its steps ended.
          phases: phaseOffsets(phases),
          startedAt: phases.reloadStarted,
          loaderCpuMs: loadCpuMs,
        }),
  };
}
