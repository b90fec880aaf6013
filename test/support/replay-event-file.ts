/**
 * A finished event as `muster replay` reads it (docs/operations.md#replaying-an-event): the
 * demo slice's largest completed singles event with the system, factions and players it needs, as
 * one canonical document, written to a file.
 */
import { writeFileSync } from 'node:fs';
import type { CanonicalDocument, Event } from '../../src/domain/model.ts';
import { demoSlice } from './test-app.ts';

/** The demo slice's largest completed singles event, self-contained; `change` adjusts it. */
export function replayDocument(change: (e: Event) => Event = (e) => e): {
  doc: CanonicalDocument;
  event: Event;
} {
  const slice = demoSlice();
  // The largest, so that the top 8 is a cut and not the whole field.
  const found = (slice.events ?? [])
    .filter((e) => e.status === 'completed' && e.format === 'singles' && (e.games?.length ?? 0) > 0)
    .reduce((a, b) => ((b.entries?.length ?? 0) > (a.entries?.length ?? 0) ? b : a));
  const event = change(found);
  const players = new Set(event.games!.flatMap((g) => g.sides.map((s) => s.player)));
  const doc: CanonicalDocument = {
    format: 'muster/v1',
    systems: slice.systems,
    factions: slice.factions,
    players: (slice.players ?? []).filter((p) => players.has(p.id)),
    events: [event],
  };
  return { doc, event };
}

/** Writes `doc` to `path` as canonical JSON, or as NDJSON (one line per part) with `ndjson`. */
export function writeReplayFile(path: string, doc: CanonicalDocument, ndjson = false): string {
  if (!ndjson) writeFileSync(path, JSON.stringify(doc));
  else {
    const { events, ...reference } = doc;
    writeFileSync(
      path,
      `${JSON.stringify(reference)}\n${JSON.stringify({ format: 'muster/v1', events })}\n`,
    );
  }
  return path;
}
