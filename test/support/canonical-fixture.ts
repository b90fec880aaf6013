/** A small hand-made canonical document: one system, three factions, one event, three games. */
import type { CanonicalDocument } from '../../src/domain/model.ts';

export function smallDocument(): CanonicalDocument & Required<Pick<CanonicalDocument, 'events'>> {
  return {
    format: 'muster/v1',
    systems: [
      {
        id: 'tow',
        name: 'Test of War',
        score: { min: 0, max: 20, total: 20 },
        marginBands: {
          decisive: { min: 18, max: 20 },
          normal: { min: 14, max: 17 },
          close: { min: 10, max: 13 },
        },
      },
    ],
    factions: [
      { id: 'VS', system: 'tow', name: 'Vermin Swarm', aliases: ['Rats'] },
      { id: 'HE', system: 'tow', name: 'Highborn Elves' },
      { id: 'DH', system: 'tow', name: 'Dwarven Holds' },
    ],
    players: [
      { id: 'p1', name: 'Ada', country: 'FR' },
      { id: 'p2', name: 'Bo', country: 'DE' },
      { id: 'p3' },
    ],
    events: [
      {
        id: 'ev1',
        system: 'tow',
        name: 'Spring Clash',
        start: '2025-04-05',
        end: '2025-04-06',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        participants: 3,
        games: [
          {
            id: 'g1',
            round: 1,
            sides: [
              { player: 'p1', faction: 'vermin swarm', score: 15, firstTurn: true },
              { player: 'p2', faction: 'HE', score: 5, firstTurn: false },
            ],
          },
          {
            id: 'g2',
            round: 2,
            scenario: { map: 'Vetia 1', deployment: 'Spearhead', primary: 'Breakthrough' },
            sides: [
              {
                player: 'p2',
                faction: 'HE',
                score: 10,
                list: {
                  points: 4500,
                  units: [
                    {
                      name: 'Prince',
                      category: 'Characters',
                      cost: 300,
                      options: [{ name: 'Dragon Lance', type: 'Magic Items' }],
                    },
                  ],
                },
              },
              { player: 'p3', faction: 'Rats', score: 10 },
            ],
          },
          {
            id: 'g3',
            round: 3,
            sides: [
              { player: null, faction: 'DH', score: 3 },
              { player: 'p1', faction: 'VS', score: 17 },
            ],
          },
        ],
      },
    ],
  };
}
