/**
 * The games paired but not played yet (docs/data-model.md#unplayed-games), read beside the
 * facts: the snapshot keeps them for their events' rounds, out of every statistic. They are few
 * (the rounds in progress), found through the partial index on unplayed games.
 */
import type { PairedGame } from '../domain/unplayed-game.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

/** Every unplayed game with its two sides, in game id order. */
export async function readUnplayedGames(target: StoreOrHandle): Promise<PairedGame[]> {
  const db = handleOf(target);
  const rows = await db
    .selectFrom('games')
    .innerJoin('sides', 'sides.game_id', 'games.id')
    .select([
      'games.id',
      'games.event_id',
      'games.round',
      'games.table_no',
      'sides.side',
      'sides.player_id',
      'sides.faction_id',
    ])
    .where('games.played', '=', 0)
    .orderBy('games.id')
    .orderBy('sides.side')
    .execute();
  const games: PairedGame[] = [];
  for (const r of rows) {
    const side = { player: r.player_id, faction: r.faction_id };
    const last = games.at(-1);
    if (last !== undefined && last.id === r.id) {
      last.sides[1] = side;
      continue;
    }
    const round = r.round === null ? null : Number(r.round);
    const table = r.table_no === null ? null : Number(r.table_no);
    games.push({ id: r.id, event: r.event_id, round, table, sides: [side, side] });
  }
  return games;
}
