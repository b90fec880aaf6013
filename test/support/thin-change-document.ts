/**
 * Two windows of one system, written by hand for emphasis (docs/statistics.md#emphasis): a rules
 * update 1.0 → 1.1. Alpha v Bravo is played 60 times in each (Alpha wins 30, then 54): a real
 * change. Charlie v Delta is played once before (Delta wins) and three times after (Charlie wins
 * all): 0 % to 100 %, "+100 pp" with an interval that excludes 0, from four games.
 */
import type { CanonicalDocument, Game as CanonicalGame } from '../../src/domain/model.ts';

/** The document; every game has two new players, so no rating or place carries over. */
export function thinChangeDocument(): CanonicalDocument {
  let player = 0;
  const game = (id: string, first: string, second: string, firstWins: boolean) =>
    ({
      id,
      round: 1,
      sides: [
        { player: `p${++player}`, faction: first, score: firstWins ? 15 : 5 },
        { player: `p${++player}`, faction: second, score: firstWins ? 5 : 15 },
      ],
    }) satisfies CanonicalGame;
  const event = (id: string, start: string, rules: string, alphaWins: number, cd: boolean[]) => ({
    id,
    system: 'thin',
    name: `Thin Open ${rules}`,
    start,
    end: start,
    status: 'completed' as const,
    format: 'singles' as const,
    tier: 'standard' as const,
    rulesVersion: rules,
    games: [
      ...Array.from({ length: 60 }, (_, i) => game(`${id}-ab${i}`, 'A', 'B', i < alphaWins)),
      ...cd.map((charlieWins, i) => game(`${id}-cd${i}`, 'C', 'D', charlieWins)),
    ],
  });
  const events = [
    event('t1', '2025-03-01', '1.0', 30, [false]),
    event('t2', '2025-09-01', '1.1', 54, [true, true, true]),
  ];
  return {
    format: 'muster/v1',
    systems: [{ id: 'thin', name: 'Thin Changes', score: { min: 0, max: 20, total: 20 } }],
    factions: ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => ({
      id: name[0],
      system: 'thin',
      name,
    })),
    players: Array.from({ length: player }, (_, i) => ({ id: `p${i + 1}` })),
    events,
  } as CanonicalDocument;
}
