/** A hand-made store for the player-merge tests (docs/data-model.md#player-merges). */
import type { CanonicalDocument } from '../../src/domain/model.ts';

type Side = [player: string, faction: 'A' | 'B', result: 'win' | 'loss' | 'draw'];

function event(id: string, start: string, games: Array<[Side, Side]>) {
  return {
    id,
    system: 'tt',
    name: `Event ${id}`,
    start,
    status: 'completed' as const,
    format: 'singles' as const,
    games: games.map(([a, b], i) => ({
      id: `${id}-g${i + 1}`,
      round: i + 1,
      sides: [a, b].map(([player, faction, result]) => ({ player, faction, result })),
    })),
  };
}

/**
 * Seven players of one system over four events, José García under two ids (`p-jose` and, as
 * `jose2`, `p-jose2` for the store to merge or `p-jose` for one id from the start), and Anna
 * Nowak twice, two people who played each other.
 */
export function mergeDocument(jose2: string): CanonicalDocument {
  return {
    format: 'muster/v1',
    systems: [{ id: 'tt', name: 'Test Tactics' }],
    factions: [
      { id: 'A', system: 'tt', name: 'Alpha' },
      { id: 'B', system: 'tt', name: 'Beta' },
    ],
    players: [
      { id: 'p-jose', name: 'José García', country: 'ES' },
      { id: 'p-jose2', name: 'jose garcia', country: 'ES' },
      { id: 'p-anna', name: 'Anna Nowak', country: 'PL' },
      { id: 'p-anna2', name: 'Anna Nowak', country: 'PL' },
      { id: 'p-x', name: 'Xavier Quill' },
      { id: 'p-y', name: 'Yannick Rowe' },
      { id: 'p-z', name: 'Zofia Stone' },
    ],
    events: [
      event('e1', '2025-01-10', [
        [
          ['p-jose', 'A', 'win'],
          ['p-x', 'B', 'loss'],
        ],
        [
          ['p-anna', 'A', 'win'],
          ['p-anna2', 'B', 'loss'],
        ],
        [
          ['p-y', 'A', 'draw'],
          ['p-z', 'B', 'draw'],
        ],
      ]),
      event('e2', '2025-02-10', [
        [
          [jose2, 'A', 'win'],
          ['p-y', 'B', 'loss'],
        ],
        [
          ['p-x', 'A', 'loss'],
          ['p-z', 'B', 'win'],
        ],
      ]),
      event('e3', '2025-03-10', [
        [
          ['p-jose', 'A', 'loss'],
          ['p-z', 'B', 'win'],
        ],
        [
          ['p-x', 'A', 'win'],
          ['p-y', 'B', 'loss'],
        ],
        [
          ['p-anna2', 'B', 'win'],
          ['p-anna', 'A', 'loss'],
        ],
      ]),
      event('e4', '2025-04-10', [
        [
          [jose2, 'A', 'loss'],
          ['p-x', 'B', 'win'],
        ],
      ]),
    ],
  } as unknown as CanonicalDocument;
}
