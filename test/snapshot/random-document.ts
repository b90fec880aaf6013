/**
 * Seeded random canonical data for the differential tests: several systems, events with varied
 * attributes (some not completed), thousands of games with mirrors, draws, unknown players and
 * first turns, scenario parts, per-side secondaries and lists.
 */

/** mulberry32: a small, well-known 32-bit PRNG (Tommy Ettinger). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomOptions {
  seed: number;
  gamesPerSystem: number;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/**
 * An event's declared participant count, as real sources give it: usually at least the players
 * who played (up to 9 more registered), none for a tenth of events, 0 for one in twenty (T9A
 * declares 0 for some; docs/statistics.md#events). Two draws of `r` as before, so the rest of
 * the document is what it was.
 */
function declared<G extends { sides: Array<{ player: string | null }> }>(
  r: () => number,
  games: G[],
) {
  const draw = r();
  if (draw < 0.1) return null;
  const spread = r();
  if (draw < 0.15) return 0;
  const played = new Set(
    games.flatMap((g) => g.sides.map((s) => s.player)).filter((p) => p !== null),
  ).size;
  return played + Math.floor(spread * 10);
}

export function randomDocument({ seed, gamesPerSystem }: RandomOptions) {
  const r = rng(seed);
  const systems = [
    {
      id: 'alpha',
      name: 'Alpha Wars',
      score: { min: 0, max: 20, total: 20 },
      marginBands: {
        decisive: { min: 18, max: 20 },
        normal: { min: 14, max: 17 },
        close: { min: 11, max: 13 },
      },
      factions: ['AA', 'AB', 'AC', 'AD', 'AE', 'AF'],
    },
    {
      id: 'beta',
      name: 'Beta Battles',
      score: { min: 0, max: 3 },
      factions: ['BA', 'BB', 'BC', 'BD'],
    },
  ];
  const players = Array.from({ length: 120 }, (_, i) => ({ id: `pl${i}` }));
  const items = {
    unit: ['Knight', 'Archer', 'Spearman', 'Dragon', 'Wizard', 'Cannon'],
    'Magic Items': ['Blade of Doom', 'Ring', 'Talisman', 'Crown'],
    Path: ['Fire', 'Ice'],
  };
  const events: unknown[] = [];
  for (const sys of systems) {
    const nEvents = 40;
    const perEvent = Math.ceil(gamesPerSystem / nEvents);
    for (let e = 0; e < nEvents; e++) {
      const month = 1 + Math.floor(r() * 12);
      const day = 1 + Math.floor(r() * 28);
      const year = r() < 0.5 ? 2024 : 2025;
      const status = r() < 0.1 ? 'ongoing' : 'completed';
      const games = [];
      for (let g = 0; g < perEvent; g++) {
        const fa = pick(r, sys.factions);
        const fb = r() < 0.15 ? fa : pick(r, sys.factions);
        let sa: number;
        let sb: number;
        if (sys.id === 'alpha') {
          sa = Math.floor(r() * 21);
          sb = 20 - sa;
        } else {
          sa = Math.floor(r() * 4);
          sb = Math.floor(r() * 4);
        }
        const pa = r() < 0.1 ? null : pick(r, players).id;
        let pb = r() < 0.1 ? null : pick(r, players).id;
        if (pb !== null && pb === pa) pb = null;
        const ft = r() < 0.2 ? null : r() < 0.5;
        const primary = r() < 0.3 ? null : pick(r, ['P1', 'P2', 'P3']);
        const winnerPrimary = r();
        const list = () =>
          r() < 0.5
            ? null
            : {
                units: Array.from({ length: 1 + Math.floor(r() * 4) }, () => ({
                  name: pick(r, items.unit),
                  category: 'Core',
                  options:
                    r() < 0.5
                      ? []
                      : [
                          { name: pick(r, items['Magic Items']), type: 'Magic Items' },
                          ...(r() < 0.3 ? [{ name: pick(r, items.Path), type: 'Path' }] : []),
                        ],
                })),
              };
        const secondaryA = sys.id === 'alpha' && r() < 0.7 ? pick(r, ['S1', 'S2']) : null;
        const secondaryB = sys.id === 'alpha' && r() < 0.7 ? pick(r, ['S1', 'S2']) : null;
        games.push({
          id: `${sys.id}-e${e}-g${g}`,
          scenario: {
            map: r() < 0.2 ? null : pick(r, ['Hills', 'Forest', 'River']),
            deployment: r() < 0.2 ? null : pick(r, ['Line', 'Flank']),
            primary,
          },
          sides: [
            {
              player: pa,
              faction: fa,
              score: sa,
              firstTurn: ft,
              primaryAchieved: primary === null ? null : winnerPrimary < 0.4,
              secondary: secondaryA,
              secondaryAchieved: secondaryA === null ? null : r() < 0.5,
              list: list(),
            },
            {
              player: pb,
              faction: fb,
              score: sb,
              firstTurn: ft === null ? null : !ft,
              primaryAchieved: primary === null ? null : winnerPrimary > 0.7,
              secondary: secondaryB,
              secondaryAchieved: secondaryB === null ? null : r() < 0.5,
              list: list(),
            },
          ],
        });
      }
      events.push({
        id: `${sys.id}-e${e}`,
        system: sys.id,
        name: `${sys.name} event ${e}`,
        start: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        status,
        format: r() < 0.8 ? 'singles' : 'teams',
        tier: pick(r, ['standard', 'standard', 'satellite', 'major']),
        participants: declared(r, games),
        country: pick(r, ['DE', 'FR', 'IT', null]),
        online: r() < 0.2,
        games,
      });
    }
  }
  return {
    format: 'muster/v1',
    systems: systems.map(({ factions: _f, ...s }) => s),
    factions: systems.flatMap((s) =>
      s.factions.map((id) => ({ id, system: s.id, name: `Faction ${id}` })),
    ),
    players,
    events,
  };
}
