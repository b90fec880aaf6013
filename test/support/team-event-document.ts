/**
 * A team event written by hand, scored by its system's team rule
 * (docs/statistics.md#team-events). Teams A, B and C of three meet once each, 20-0 per game, and the
 * event caps a team's match score at 50 (the excess to the other team):
 *
 *   round 1  A 58–2  B  (20-0, 20-0, 18-2)   capped 50–10
 *   round 2  A 18–42 C  (10-10, 5-15, 3-17)  under the cap
 *   round 3  B 30–30 C  (11-9, 10-10, 9-11)  a drawn match
 *
 * Match scores: C 42 + 30 = 72, A 50 + 18 = 68, B 10 + 30 = 40, so C 1st, A 2nd, B 3rd; the
 * plain sums (A 76, C 72, B 32) would have put A first. The same event in a system without a
 * team rule lists the same teams, unranked, with plain sums.
 */
import type { CanonicalDocument } from '../../src/domain/model.ts';

const result = (own: number, other: number) =>
  own > other ? 'win' : own < other ? 'loss' : 'draw';

/** Round `round`'s games between two teams' players 1..3, with the scores of the first team. */
const match = (id: string, round: number, a: string, b: string, scores: number[]) =>
  scores.map((s, k) => ({
    id: `${id}-${k + 1}`,
    round,
    sides: [
      { player: `${a}${k + 1}`, faction: 'F', score: s, result: result(s, 20 - s) },
      { player: `${b}${k + 1}`, faction: 'F', score: 20 - s, result: result(20 - s, s) },
    ],
  }));

/** The hand-worked team event in system `system`, its players prefixed `prefix`. */
const teamEvent = (system: string, prefix: string) => ({
  id: `${system}-T`,
  system,
  name: 'Teams',
  start: '2025-05-03',
  format: 'teams',
  rounds: 3,
  teamScoreCap: 50,
  entries: ['a', 'b', 'c'].flatMap((team) =>
    [1, 2, 3].map((k) => ({
      player: `${prefix}${team}${k}`,
      faction: 'F',
      team: team.toUpperCase(),
    })),
  ),
  games: [
    ...match(`${system}-r1`, 1, `${prefix}a`, `${prefix}b`, [20, 20, 18]),
    ...match(`${system}-r2`, 2, `${prefix}a`, `${prefix}c`, [10, 5, 3]),
    ...match(`${system}-r3`, 3, `${prefix}b`, `${prefix}c`, [11, 10, 9]),
  ],
});

export const TEAM_EVENT_DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'tr',
      name: 'Team Rule',
      score: { min: 0, max: 20, total: 20 },
      teamRule: { name: 'total team battle points', rank: ['score'] },
    },
    { id: 'nt', name: 'No Team Rule', score: { min: 0, max: 20, total: 20 } },
  ],
  factions: ['tr', 'nt'].map((system) => ({ id: 'F', system, name: 'Folk' })),
  events: [teamEvent('tr', ''), teamEvent('nt', 'n')],
} as unknown as CanonicalDocument;
