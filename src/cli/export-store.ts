/**
 * `muster export`: the store (or the events a selection picks) as line-delimited canonical
 * records (docs/import-formats.md#export), streamed page by page so that memory holds one page
 * whatever the store's size. The output imports with `muster import --format ndjson -`.
 */
import type { CanonicalDocument } from '../domain/model.ts';
import { readExportEvents, readExportPlayers, readExportReference } from '../store/read-export.ts';
import type { ExportSelection } from '../store/read-export.ts';
import { readPlayerMerges } from '../store/player-merges.ts';
import type { StoreOrHandle } from '../store/store-handle.ts';

const PLAYERS_PER_LINE = 1_000;
const EVENTS_PER_PAGE = 100;

export interface ExportCounts {
  lines: number;
  events: number;
  games: number;
}

/**
 * Writes the export line by line through `write` (which may return a promise to apply
 * back-pressure): reference data first, then players, then one line per event, then the player
 * merges (undone ones too) when the store holds any, so that they import after their players.
 */
export async function exportStore(
  store: StoreOrHandle,
  write: (line: string) => void | Promise<void>,
  selection: ExportSelection = {},
): Promise<ExportCounts> {
  const counts: ExportCounts = { lines: 0, events: 0, games: 0 };
  const emit = async (doc: Omit<CanonicalDocument, 'format'>) => {
    await write(JSON.stringify({ format: 'muster/v1', ...doc }));
    counts.lines++;
  };
  const reference = await readExportReference(store);
  const systems =
    selection.system === undefined
      ? reference.systems
      : reference.systems.filter((s) => s.id === selection.system);
  const keep = <T extends { system: string }>(rows: T[]) =>
    selection.system === undefined ? rows : rows.filter((r) => r.system === selection.system);
  await emit({ systems, factions: keep(reference.factions), scenarios: keep(reference.scenarios) });
  for (let after: string | null = null; ; ) {
    const players = await readExportPlayers(store, after, PLAYERS_PER_LINE);
    if (players.length === 0) break;
    await emit({ players });
    after = players[players.length - 1].id;
  }
  for (let after: string | null = null; ; ) {
    const events = await readExportEvents(store, after, EVENTS_PER_PAGE, selection);
    if (events.length === 0) break;
    for (const event of events) {
      await emit({ events: [event] });
      counts.events++;
      counts.games += event.games?.length ?? 0;
    }
    after = events[events.length - 1].id;
  }
  const playerMerges = await readPlayerMerges(store);
  if (playerMerges.length > 0) await emit({ playerMerges });
  return counts;
}
