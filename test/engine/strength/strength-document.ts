/**
 * Canonical documents for the joint model's tests: events of games written as
 * [player A, faction A, player B, faction B, outcome A], the outcome side A's result (1, ½, 0)
 * in a win/draw/loss system, or its score out of 20 in a scored one.
 */
import type { CanonicalDocument, Side } from '../../../src/domain/model.ts';

export type GameRow = [string, string, string, string, number];

export interface EventRows {
  start: string;
  games: GameRow[];
}

function sides(row: GameRow, scored: boolean): [Side, Side] {
  const [a, fa, b, fb, outcome] = row;
  if (scored) {
    const result = outcome > 10 ? 'win' : outcome < 10 ? 'loss' : 'draw';
    const other = result === 'win' ? 'loss' : result === 'loss' ? 'win' : 'draw';
    return [
      { player: a, faction: fa, score: outcome, result },
      { player: b, faction: fb, score: 20 - outcome, result: other },
    ];
  }
  const result = outcome === 1 ? 'win' : outcome === 0 ? 'loss' : 'draw';
  const other = outcome === 1 ? 'loss' : outcome === 0 ? 'win' : 'draw';
  return [
    { player: a, faction: fa, result },
    { player: b, faction: fb, result: other },
  ];
}

/** A one-system document of `events` over factions `factions` (ids; names "Faction <id>"). */
export function strengthDocument(
  events: EventRows[],
  factions: string[],
  scored = false,
): CanonicalDocument {
  const players = new Set<string>();
  for (const e of events) for (const g of e.games) players.add(g[0]).add(g[2]);
  return {
    format: 'muster/v1',
    systems: [
      scored
        ? { id: 'sc', name: 'Scored', score: { min: 0, max: 20, total: 20 } }
        : { id: 'wl', name: 'Win or lose' },
    ],
    factions: factions.map((id) => ({ id, system: scored ? 'sc' : 'wl', name: `Faction ${id}` })),
    players: [...players].map((id) => ({ id })),
    events: events.map((e, i) => ({
      id: `E${String(i + 1).padStart(3, '0')}`,
      system: scored ? 'sc' : 'wl',
      name: `Event ${i + 1}`,
      start: e.start,
      status: 'completed',
      format: 'singles',
      games: e.games.map((row, k) => ({ id: `E${i + 1}-g${k + 1}`, sides: sides(row, scored) })),
    })),
  } as CanonicalDocument;
}

/** The day `weeks` weeks after 2025-01-06. */
export function weekStart(weeks: number): string {
  return new Date(Date.UTC(2025, 0, 6 + 7 * weeks)).toISOString().slice(0, 10);
}

/**
 * Forty weekly events of ten games between fresh players (every Glicko-2 forecast ½), faction A
 * against B, A winning seven of each ten.
 */
export function twoFactionEvents(): EventRows[] {
  return Array.from({ length: 40 }, (_, e) => ({
    start: weekStart(e),
    games: Array.from({ length: 10 }, (_, k): GameRow => {
      const [a, b] = [`e${e}a${k}`, `e${e}b${k}`];
      // Alternate the sides so that A is not always listed first.
      return k % 2 === 0 ? [a, 'A', b, 'B', k < 7 ? 1 : 0] : [b, 'B', a, 'A', k < 7 ? 0 : 1];
    }),
  }));
}
