/**
 * Plays out one demo tournament: Swiss pairings round by round (teams paired as teams, members
 * matched inside each team pairing), scores from a logit model of the hidden strengths, and final
 * placements from points, score and opponents' points (Buchholz).
 */
import type { Game, Side } from '../../domain/model.ts';
import { MAPS, SCENARIO_PACKS, SECONDARIES } from './demo-catalogue.ts';
import type { DemoWorld } from './demo-world.ts';
import type { Rng } from './rng.ts';

export interface Contestant {
  player: string;
  faction: string;
  subfaction: string | null;
  /** Index of the contestant's team in a team event. */
  team: number | null;
  /** Player skill + army strength + list power, in logit units. */
  strength: number;
}

export interface PlayOptions {
  eventId: string;
  rounds: number;
  contestants: Contestant[];
  /** Team events only: the members (contestant indices) of each team. */
  teams: number[][] | null;
  /** Events that report only scores leave first turn and objectives unrecorded. */
  detailed: boolean;
}

export interface PlayedEvent {
  games: Game[];
  /** Final placement (1 = winner) per contestant index. */
  placements: number[];
}

// Below this performance gap a game ends 10-10; beyond it each 1/3 logit is one more point.
const DRAW_BAND = 0.25;
const POINTS_PER_LOGIT = 3;
const SECONDARY_WEIGHTS = SECONDARIES.map((_, i) => 6 - i);

interface Standing {
  points: number;
  score: number;
}

/** Orders by points, then score, then a fresh random tiebreak (Swiss pairing order). */
function swissOrder(rng: Rng, standings: Standing[]): number[] {
  const tiebreak = standings.map(() => rng.next());
  return standings
    .map((_, i) => i)
    .sort(
      (a, b) =>
        standings[b].points - standings[a].points ||
        standings[b].score - standings[a].score ||
        tiebreak[a] - tiebreak[b],
    );
}

/** Greedy Swiss: each unpaired one meets the next unpaired one it has not met; rematch if stuck. */
function pairUp(order: number[], met: Set<number>[]): [number, number][] {
  const paired = new Set<number>();
  const pairs: [number, number][] = [];
  for (let i = 0; i < order.length; i++) {
    const a = order[i];
    if (paired.has(a)) continue;
    let partner = -1;
    for (let j = i + 1; j < order.length; j++) {
      const b = order[j];
      if (paired.has(b)) continue;
      if (partner < 0) partner = b;
      if (!met[a].has(b)) {
        partner = b;
        break;
      }
    }
    if (partner < 0) break;
    paired.add(a).add(partner);
    met[a].add(partner);
    met[partner].add(a);
    pairs.push([a, partner]);
  }
  return pairs;
}

/** Swiss pairings of teams, then each team pairing's members matched at random. */
function teamRoundPairs(
  rng: Rng,
  teams: number[][],
  teamStanding: Standing[],
  metTeams: Set<number>[],
): [number, number][] {
  const pairs: [number, number][] = [];
  for (const [ta, tb] of pairUp(swissOrder(rng, teamStanding), metTeams)) {
    const others = rng.shuffle(teams[tb]);
    teams[ta].forEach((a, k) => pairs.push([a, others[k]]));
  }
  return pairs;
}

/** The detail a detailed demo event reports: turn order, objectives and the map. */
function addDetails(
  rng: Rng,
  game: Game,
  play: { x: number; aFirst: boolean; draw: boolean; map: string },
): void {
  const [sideA, sideB] = game.sides;
  const { x, aFirst, draw, map } = play;
  sideA.firstTurn = aFirst;
  sideB.firstTurn = !aFirst;
  // The side that comes out ahead usually holds the primary objective; at most one does.
  const r = rng.next();
  const leader = x > 0 ? sideA : sideB;
  const trailer = x > 0 ? sideB : sideA;
  const leaderP = draw ? 0.25 : 0.7;
  const trailerP = draw ? 0.25 : 0.08;
  leader.primaryAchieved = r < leaderP;
  trailer.primaryAchieved = r >= leaderP && r < leaderP + trailerP;
  sideA.secondary = SECONDARIES[rng.weighted(SECONDARY_WEIGHTS)].name;
  sideB.secondary = SECONDARIES[rng.weighted(SECONDARY_WEIGHTS)].name;
  sideA.secondaryAchieved = rng.chance(1 / (1 + Math.exp(-(0.1 + 0.6 * x))));
  sideB.secondaryAchieved = rng.chance(1 / (1 + Math.exp(-(0.1 - 0.6 * x))));
  const secondaries = [...new Set([sideA.secondary, sideB.secondary])];
  game.scenario = { ...game.scenario, map, secondaries };
}

/** Plays every round of one event; deterministic in the Rng. */
export function playDemoEvent(rng: Rng, world: DemoWorld, options: PlayOptions): PlayedEvent {
  const { contestants, teams, detailed } = options;
  const n = contestants.length;
  const standing: Standing[] = contestants.map(() => ({ points: 0, score: 0 }));
  const opponents: number[][] = contestants.map(() => []);
  const metPlayers = contestants.map(() => new Set<number>());
  const teamStanding: Standing[] = (teams ?? []).map(() => ({ points: 0, score: 0 }));
  const metTeams = (teams ?? []).map(() => new Set<number>());
  const packs = rng.shuffle(SCENARIO_PACKS);
  const games: Game[] = [];

  for (let round = 1; round <= options.rounds; round++) {
    const pairs = teams
      ? teamRoundPairs(rng, teams, teamStanding, metTeams)
      : pairUp(swissOrder(rng, standing), metPlayers);
    const pack = packs[(round - 1) % packs.length];
    const map = rng.pick(MAPS).name;
    const edge = world.firstTurnEdge.get(pack.name) ?? 0;
    const roundTeamScore = new Map<number, number>();

    pairs.forEach(([a, b], index) => {
      const ca = contestants[a];
      const cb = contestants[b];
      const aFirst = rng.chance(0.5);
      const x =
        ca.strength -
        cb.strength +
        (world.matchup.get(`${ca.faction}|${cb.faction}`) ?? 0) +
        (aFirst ? edge : -edge) +
        rng.logistic();
      const gap =
        Math.abs(x) < DRAW_BAND
          ? 0
          : Math.min(10, Math.max(1, Math.round(POINTS_PER_LOGIT * Math.abs(x))));
      const scoreA = x > 0 ? 10 + gap : 10 - gap;
      const scoreB = 20 - scoreA;
      const resultA = scoreA > scoreB ? 'win' : scoreA < scoreB ? 'loss' : 'draw';
      const resultB = resultA === 'win' ? 'loss' : resultA === 'loss' ? 'win' : 'draw';

      const sideA: Side = {
        player: ca.player,
        faction: ca.faction,
        score: scoreA,
        result: resultA,
      };
      const sideB: Side = {
        player: cb.player,
        faction: cb.faction,
        score: scoreB,
        result: resultB,
      };
      if (ca.subfaction) sideA.subfaction = ca.subfaction;
      if (cb.subfaction) sideB.subfaction = cb.subfaction;
      const game: Game = {
        id: `${options.eventId}-r${round}-t${index + 1}`,
        round,
        table: index + 1,
        scenario: { name: pack.name, deployment: pack.deployment, primary: pack.primary },
        sides: [sideA, sideB],
      };
      if (detailed) addDetails(rng, game, { x, aFirst, draw: resultA === 'draw', map });
      games.push(game);

      standing[a].points += resultA === 'win' ? 1 : resultA === 'draw' ? 0.5 : 0;
      standing[b].points += resultB === 'win' ? 1 : resultB === 'draw' ? 0.5 : 0;
      standing[a].score += scoreA;
      standing[b].score += scoreB;
      opponents[a].push(b);
      opponents[b].push(a);
      if (teams && ca.team !== null && cb.team !== null) {
        roundTeamScore.set(ca.team, (roundTeamScore.get(ca.team) ?? 0) + scoreA);
        roundTeamScore.set(cb.team, (roundTeamScore.get(cb.team) ?? 0) + scoreB);
      }
    });

    if (teams) {
      const half = (teams[0].length * 20) / 2;
      for (const [t, score] of roundTeamScore) {
        teamStanding[t].score += score;
        teamStanding[t].points += score > half ? 1 : score === half ? 0.5 : 0;
      }
    }
  }

  const buchholz = opponents.map((os) => os.reduce((s, o) => s + standing[o].points, 0));
  const ranked = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) =>
      standing[b].points - standing[a].points ||
      standing[b].score - standing[a].score ||
      buchholz[b] - buchholz[a] ||
      (contestants[a].player < contestants[b].player ? -1 : 1),
  );
  const placements = new Array<number>(n);
  ranked.forEach((c, i) => (placements[c] = i + 1));
  return { games, placements };
}
