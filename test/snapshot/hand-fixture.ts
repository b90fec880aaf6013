/**
 * A tiny canonical document whose every statistic is worked out by hand in the tests:
 * two completed events and one scheduled, factions A, B and C (C plays once), a mirror, a
 * draw, a game without a first-turn record, lists with and without items.
 */
export const HAND_DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'tt',
      name: 'Test Game',
      score: { min: 0, max: 20, total: 20 },
      marginBands: {
        decisive: { min: 18, max: 20 },
        normal: { min: 14, max: 17 },
        close: { min: 10, max: 13 },
      },
      placementRule: { name: 'wins, then total score', rank: ['wins', 'score'] },
    },
  ],
  factions: [
    { id: 'A', system: 'tt', name: 'Alpha' },
    { id: 'B', system: 'tt', name: 'Beta' },
    { id: 'C', system: 'tt', name: 'Gamma' },
  ],
  players: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }],
  events: [
    {
      id: 'E1',
      system: 'tt',
      name: 'Event One',
      start: '2025-01-10',
      status: 'completed',
      format: 'singles',
      // 4 of 5 declared entrants have games: enough to derive places (docs/statistics.md#standings).
      participants: 5,
      country: 'DE',
      games: [
        {
          id: 'g1',
          scenario: { map: 'M1', deployment: 'D1', primary: 'P1' },
          sides: [
            {
              player: 'p1',
              faction: 'A',
              score: 15,
              result: 'win',
              firstTurn: true,
              primaryAchieved: true,
              list: {
                units: [
                  {
                    name: 'Unit X',
                    category: 'Core',
                    options: [{ name: 'Sword', type: 'Magic Items' }],
                  },
                ],
              },
            },
            {
              player: 'p2',
              faction: 'B',
              score: 5,
              result: 'loss',
              firstTurn: false,
              primaryAchieved: false,
            },
          ],
        },
        {
          id: 'g2',
          scenario: { map: 'M1' },
          sides: [
            { player: 'p3', faction: 'A', score: 10, result: 'draw', list: { units: [] } },
            { player: 'p4', faction: 'B', score: 10, result: 'draw' },
          ],
        },
        {
          id: 'g3',
          scenario: { map: 'M2' },
          sides: [
            { player: 'p1', faction: 'A', score: 12, result: 'win', firstTurn: true },
            { player: 'p3', faction: 'A', score: 8, result: 'loss', firstTurn: false },
          ],
        },
        {
          id: 'g4',
          scenario: { secondaries: ['S1'] },
          sides: [
            {
              player: 'p2',
              faction: 'B',
              score: 20,
              result: 'win',
              firstTurn: false,
              secondaryAchieved: true,
            },
            {
              player: 'p4',
              faction: 'C',
              score: 0,
              result: 'loss',
              firstTurn: true,
              secondaryAchieved: false,
              list: { units: [{ name: 'Unit Z', category: 'Special' }] },
            },
          ],
        },
      ],
    },
    {
      id: 'E2',
      system: 'tt',
      name: 'Event Two',
      start: '2025-02-15',
      status: 'completed',
      format: 'teams',
      participants: 4,
      games: [
        {
          id: 'g5',
          scenario: { map: 'M1', primary: 'P1' },
          sides: [
            {
              player: 'p1',
              faction: 'A',
              score: 6,
              result: 'loss',
              firstTurn: false,
              primaryAchieved: false,
              list: {
                units: [
                  {
                    name: 'Unit X',
                    category: 'Core',
                    options: [{ name: 'Sword', type: 'Magic Items' }],
                  },
                  {
                    name: 'Unit Y',
                    category: 'Core',
                    options: [{ name: 'SWORD', type: 'Magic Items' }],
                  },
                ],
              },
            },
            {
              player: 'p2',
              faction: 'B',
              score: 14,
              result: 'win',
              firstTurn: true,
              primaryAchieved: false,
            },
          ],
        },
      ],
    },
    {
      id: 'E3',
      system: 'tt',
      name: 'Upcoming',
      start: '2026-06-01',
      status: 'scheduled',
      tier: 'satellite',
    },
  ],
};
