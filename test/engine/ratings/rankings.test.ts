import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eloExpected, runElo } from '../../../src/engine/ratings/elo.ts';
import { glicko2Update } from '../../../src/engine/ratings/glicko2.ts';
import { DEFAULT_POINTS_OPTIONS } from '../../../src/engine/ratings/points.ts';
import {
  DEFAULT_ELO,
  computeStandings,
  rankStandings,
} from '../../../src/engine/ratings/rankings.ts';
import type { RankingEvent } from '../../../src/engine/ratings/rankings.ts';
import { close, ev, factsOf, game, params } from './facts-fixture.ts';
import type { GameSpec } from './facts-fixture.ts';
import { computePreGameRatings, skillFromSides } from '../../../src/engine/ratings/skill.ts';
import type { SkillSide } from '../../../src/engine/ratings/skill.ts';

describe('rankings engine', () => {
  it('processes games by event start, then round, then game id whatever the input order', () => {
    const events = [ev('late', '2024-03-01'), ev('early', '2024-01-01')];
    const games = [
      game('z', 0, 1, 2, 0, 'a'), // 4th: late event
      game('b', 1, 2, 1, 2, 'draw'), // 3rd: early, round 2
      game('c', 1, 1, 0, 2, 'a'), // 2nd: early, round 1, id c
      game('a', 1, 1, 0, 1, 'b'), // 1st: early, round 1, id a
    ];
    const facts = factsOf(3, events, games);
    const standings = computeStandings(facts, params({ method: 'elo' }));
    const expected = runElo(
      3,
      [games[3], games[2], games[1], games[0]].map((g) => ({
        a: g.players[0],
        b: g.players[1],
        scoreA: g.results[0],
        scoreB: g.results[1],
      })),
      DEFAULT_ELO,
    );
    for (const s of standings) close(s.rating, expected[s.player], 1e-9, `player ${s.player}`);
    // The order matters: processing in input order gives different numbers.
    const naive = runElo(
      3,
      games.map((g) => ({
        a: g.players[0],
        b: g.players[1],
        scoreA: g.results[0],
        scoreB: g.results[1],
      })),
      DEFAULT_ELO,
    );
    assert.notDeepEqual([...naive], [...expected]);
  });

  it('gives equal ratings a shared rank and orders by rating', () => {
    const facts = factsOf(
      4,
      [ev('e', '2024-01-01')],
      [game('1', 0, 1, 0, 1, 'a'), game('2', 0, 1, 2, 3, 'a')],
      [],
      ['x'],
    );
    const ranked = rankStandings(computeStandings(facts, params({ method: 'elo' })));
    assert.deepEqual(
      ranked.map((r) => [r.player, r.rank, r.rating]),
      [
        [0, 1, 1516],
        [2, 1, 1516],
        [1, 3, 1484],
        [3, 3, 1484],
      ],
    );
    assert.deepEqual(
      rankStandings(computeStandings(facts, params({ method: 'elo' })), (s) => s.player !== 0).map(
        (r) => r.rank,
      ),
      [1, 2, 2],
    );
  });

  it('reports the record, events, main faction and last event of each player (glicko2)', () => {
    const facts = factsOf(
      2,
      [ev('e1', '2024-01-01'), ev('e2', '2024-02-01')],
      [
        game('1', 0, 1, 0, 1, 'a', [15, 5], [0, 1]),
        game('2', 1, 1, 0, 1, 'draw', [10, 10], [1, 1]),
        game('3', 1, 2, 1, 0, 'a', [12, 8], [1, 1]),
      ],
      [],
      ['b-faction', 'a-faction'],
    );
    const standings = computeStandings(facts, params());
    const p0 = standings.find((s) => s.player === 0)!;
    assert.deepEqual(
      [p0.games, p0.wins, p0.draws, p0.losses, p0.events, p0.lastPlayed],
      [3, 1, 1, 1, 2, '2024-02-01'],
    );
    assert.equal(p0.mainFaction, 1); // two sides with faction 1, one with faction 0
    const first = glicko2Update(
      { rating: 1500, rd: 350, volatility: 0.06 },
      [{ rating: 1500, rd: 350, score: 1 }],
      0.5,
    );
    assert.ok(p0.rd !== null && p0.rd < first.rd);
    assert.ok(p0.volatility !== null && p0.volatility > 0.05);
  });

  it('scores a hand-worked event by placements from games and an imported event by entries', () => {
    // Event 0 (3 rounds, 4 players, placements from games):
    //   0: W W L, 32 pts -> 1st; 3: L D W, 32 -> 2nd; 1: L D W, 28 -> 3rd; 2: W L L -> 4th.
    //   maximum 20 + 4 = 24: 24, 18, 12, 6.
    // Event 1 (5 rounds, 10 participants, entries: player 1 first, player 0 fifth):
    //   maximum 30 + 10 = 40: 40 and 40 × 6 / 10 = 24.
    const facts = factsOf(
      4,
      [
        ev('e0', '2024-01-10', { rounds: 3 }),
        ev('e1', '2024-02-01', { rounds: 5, participants: 10 }),
      ],
      [
        game('g1', 0, 1, 0, 1, 'a', [15, 5]),
        game('g2', 0, 1, 2, 3, 'a', [12, 8]),
        game('g3', 0, 2, 0, 2, 'a', [11, 9]),
        game('g4', 0, 2, 1, 3, 'draw', [10, 10]),
        game('g5', 0, 3, 0, 3, 'b', [6, 14]),
        game('g6', 0, 3, 1, 2, 'a', [13, 7]),
        game('g7', 1, 1, 0, 1, 'a', [20, 0]), // ignored for placement: entries exist
      ],
      [
        { event: 1, player: 1, placement: 1, faction: 0 },
        { event: 1, player: 0, placement: 5, faction: 0 },
      ],
      ['x'],
    );
    const best4 = computeStandings(facts, params({ method: 'points' }));
    assert.deepEqual(
      best4.map((s) => [s.player, s.rating, s.events]),
      [
        [1, 52, 2],
        [0, 48, 2],
        [3, 18, 1],
        [2, 6, 1],
      ],
    );
    assert.equal(best4[0].rd, null);
    const best1 = computeStandings(
      facts,
      params({ method: 'points', points: { ...DEFAULT_POINTS_OPTIONS, bestN: 1 } }),
    );
    assert.deepEqual(
      best1.map((s) => [s.player, s.rating]),
      [
        [1, 40],
        [0, 24],
        [3, 18],
        [2, 6],
      ],
    );
  });

  it('rates only games with the listed factions and lists only their players', () => {
    const facts = factsOf(
      4,
      [ev('e', '2024-01-01')],
      [
        game('1', 0, 1, 0, 1, 'a', [null, null], [0, 1]),
        game('2', 0, 1, 2, 3, 'a', [null, null], [1, 1]),
      ],
      [],
      ['f0', 'f1'],
    );
    const only0 = computeStandings(facts, params({ method: 'elo' }), new Set([0]));
    assert.deepEqual(
      only0.map((s) => [s.player, s.rating, s.games]),
      [[0, 1516, 1]],
    );
  });

  it('skips sides with unknown players', () => {
    const facts = factsOf(
      2,
      [ev('e', '2024-01-01')],
      [game('1', 0, 1, 0, -1, 'a'), game('2', 0, 2, 0, 1, 'b')],
      [],
      ['x'],
    );
    const s = computeStandings(facts, params({ method: 'elo' }));
    assert.deepEqual(
      s.map((r) => [r.player, r.games, r.rating]),
      [
        [1, 1, 1516],
        [0, 1, 1484],
      ],
    );
  });
});

describe('faction skill (strong army or strong players?)', () => {
  it('follows a hand-worked two-event sequence', () => {
    // Event 1: A (faction 0) beats B (faction 1), both 1500/350: E = 0.5 each.
    // After it, Glicko-2 gives A 1662.31 and B 1337.69; event 2 (A beats B again):
    // E_A = 1/(1+10^((1337.69-1662.31)/400)) = 0.86632.
    // Faction 0: expected (0.5+0.86632)/2 = 0.68316, actual 1 -> +0.31684; faction 1 the mirror.
    const facts = factsOf(
      2,
      [ev('e1', '2024-01-01'), ev('e2', '2024-02-01')],
      [
        game('1', 0, 1, 0, 1, 'a', [null, null], [0, 1]),
        game('2', 1, 1, 0, 1, 'a', [null, null], [0, 1]),
      ],
    );
    const pre = computePreGameRatings(facts);
    assert.deepEqual([pre[0], pre[1]], [1500, 1500]);
    close(pre[2], 1662.31, 0.01, 'A before event 2');
    close(pre[3], 1337.69, 0.01, 'B before event 2');
    const sides: SkillSide[] = facts.specs.flatMap((g, i) => [
      {
        faction: g.factions[0],
        score: g.results[0],
        playerRating: pre[2 * i],
        opponentRating: pre[2 * i + 1],
      },
      {
        faction: g.factions[1],
        score: g.results[1],
        playerRating: pre[2 * i + 1],
        opponentRating: pre[2 * i],
      },
    ]);
    const skill = skillFromSides(sides);
    close(skill.get(0)!.expectedWinRate, 0.68316, 1e-4, 'expected 0');
    close(skill.get(0)!.overExpected, 0.31684, 1e-4, 'over 0');
    close(skill.get(1)!.overExpected, -0.31684, 1e-4, 'over 1');
    assert.equal(skill.get(0)!.sides, 2);
  });

  it('leaves out sides with an unknown player', () => {
    const skill = skillFromSides([
      { faction: 0, score: 1, playerRating: 1500, opponentRating: Number.NaN },
      { faction: 0, score: 0, playerRating: 1600, opponentRating: 1400 },
    ]);
    assert.equal(skill.get(0)!.sides, 1);
    close(skill.get(0)!.overExpected, 0 - eloExpected(1600, 1400), 1e-12, 'over');
    assert.equal(
      skillFromSides([{ faction: 3, score: 1, playerRating: Number.NaN, opponentRating: 1 }]).has(
        3,
      ),
      false,
    );
  });

  it('recovers a known faction effect and tells it from strong players', () => {
    // 200 players with a hidden strength; faction 0 adds +100 Elo to whoever plays it; faction 1
    // has no effect but is chosen by the strongest players; factions 2-3 are neutral.
    let seed = 12345;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const gauss = (): number =>
      Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const players = 200;
    const strength = Array.from({ length: players }, () => 200 * gauss());
    const effect = [100, 0, 0, 0];
    const events: RankingEvent[] = [];
    const games: GameSpec[] = [];
    for (let e = 0; e < 120; e += 1) {
      const day = new Date(Date.UTC(2020, 0, 1 + 7 * e)).toISOString().slice(0, 10);
      events.push(ev(`e${e}`, day));
      const field = Array.from({ length: players }, (_, i) => i)
        .sort(() => random() - 0.5)
        .slice(0, 40);
      const faction = new Map(
        field.map((p) => [
          p,
          strength[p] > 200 && random() < 0.8 ? 1 : [0, 2, 3][Math.floor(random() * 3)],
        ]),
      );
      for (let round = 1; round <= 5; round += 1) {
        const order = [...field].sort(() => random() - 0.5);
        for (let i = 0; i < order.length; i += 2) {
          const a = order[i];
          const b = order[i + 1];
          const fa = faction.get(a)!;
          const fb = faction.get(b)!;
          const p = eloExpected(strength[a] + effect[fa], strength[b] + effect[fb]);
          const r = random();
          const result = r < p - 0.05 ? 'a' : r < p + 0.05 ? 'draw' : 'b';
          games.push(game(`${e}-${round}-${i}`, e, round, a, b, result, [null, null], [fa, fb]));
        }
      }
    }
    const facts = factsOf(players, events, games);
    const pre = computePreGameRatings(facts);
    const sides: SkillSide[] = [];
    const wins = [0, 0, 0, 0];
    const count = [0, 0, 0, 0];
    // Skip the first events, where everybody is still 1500 and nothing is known yet.
    facts.specs.forEach((g, i) => {
      if (g.event < 20 || g.factions[0] === g.factions[1]) return;
      for (const s of [0, 1] as const) {
        wins[g.factions[s]] += g.results[s];
        count[g.factions[s]] += 1;
        sides.push({
          faction: g.factions[s],
          score: g.results[s],
          playerRating: pre[2 * i + s],
          opponentRating: pre[2 * i + 1 - s],
        });
      }
    });
    const skill = skillFromSides(sides);
    const over = [0, 1, 2, 3].map((f) => skill.get(f)!.overExpected);
    // +100 Elo against an average field is worth about +0.14 of a game.
    assert.ok(over[0] > 0.07 && over[0] < 0.22, `faction 0 overExpected ${over[0]}`);
    // Faction 1 wins a lot because strong players pick it, yet it is not over-performing.
    assert.ok(wins[1] / count[1] > 0.6, `faction 1 win rate ${wins[1] / count[1]}`);
    assert.ok(Math.abs(over[1]) < 0.05, `faction 1 overExpected ${over[1]}`);
    assert.ok(skill.get(1)!.expectedWinRate > 0.6);
    for (const f of [2, 3]) assert.ok(over[f] < 0.02 && over[f] > -0.1, `faction ${f}: ${over[f]}`);
  });
});
