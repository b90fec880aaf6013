/**
 * When each part of a snapshot load happened (docs/operations.md#watching-a-folder): the
 * loading thread's steps and the serving thread's, as wall-clock milliseconds, so a reload's
 * time can be told apart into its parts (reading, deriving, handing over, warming) across
 * threads and, against an importer's own timestamps, across processes.
 */
export type LoadPhases = Record<string, number>;

/** Notes in `phases` that step `name` ended now; returns `phases`. */
export function markPhase(phases: LoadPhases, name: string): LoadPhases {
  phases[name] = Date.now();
  return phases;
}

/**
 * The phases as milliseconds after the first of them, in the order they happened: what a log
 * line shows.
 */
export function phaseOffsets(phases: LoadPhases): Record<string, number> {
  const entries = Object.entries(phases).sort((a, b) => a[1] - b[1]);
  const first = entries[0]?.[1] ?? 0;
  return Object.fromEntries(entries.map(([name, at]) => [name, at - first]));
}
