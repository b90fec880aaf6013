/**
 * The {data, meta} envelope's values (docs/http-api.md#the-envelope), apart from its schema
 * (envelope.ts): the engine threads wrap their results in it themselves
 * (docs/architecture.md#engine-thread), so this imports nothing but types.
 */
import type { EngineResult } from '../../engine/engine-result.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';

/**
 * The answer's warnings, led by the snapshot's notice (demo data) when the answer is about a
 * system whose results are generated; without a system, when any system's are
 * (docs/import-formats.md#game-systems).
 */
export function warningsFor(
  snapshot: Snapshot,
  warnings: readonly string[],
  system?: string | null,
): string[] {
  if (snapshot.notice === null) return [...warnings];
  const demo =
    system === undefined || system === null
      ? snapshot.systems.some((s) => s.demo)
      : snapshot.systems.some((s) => s.id === system && s.demo);
  return demo ? [snapshot.notice, ...warnings] : [...warnings];
}

/** The system an answer is about, from its normalised filter. */
function systemOf(filter: unknown): string | null {
  const system = (filter as { system?: unknown } | null)?.system;
  return typeof system === 'string' ? system : null;
}

/** Wraps an engine result in the envelope (docs/http-api.md#the-envelope). */
export function envelope<D, F>(snapshot: Snapshot, result: EngineResult<D, F>) {
  return {
    data: result.data,
    meta: {
      dataVersion: snapshot.dataVersion,
      generatedAt: new Date().toISOString(),
      filter: result.filter,
      sample: result.sample,
      warnings: warningsFor(snapshot, result.warnings, systemOf(result.filter)),
      ...result.meta,
    },
  };
}
