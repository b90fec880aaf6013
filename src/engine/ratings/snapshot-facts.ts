/**
 * Views of the snapshot for the ratings: the RankingFacts of its columns, each system's
 * pre-game ratings, and the per-side expectations behind faction-stats' `skill`. Each is built once per snapshot (that is, once
 * per data version) and kept while the snapshot is alive.
 */
import { PLACEMENTS_NONE } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { dayString } from '../../domain/calendar-day.ts';
import type { RankingFacts, RankingPlacement } from './rankings.ts';
import type { PlacementColumns } from './ranking-facts.ts';
import { teamPlaces } from '../events/team-places.ts';
import type { TeamPlaces } from '../events/team-places.ts';
import { eloExpected } from './elo.ts';
import { computePreGameRatings } from './skill.ts';
import { snapshotData } from '../snapshot-cache.ts';

const factsCache = new WeakMap<Snapshot, RankingFacts>();

/** The snapshot as RankingFacts (all systems; select a system's games by its row range). */
export function rankingFacts(snapshot: Snapshot): RankingFacts {
  const cached = factsCache.get(snapshot);
  if (cached !== undefined) return cached;
  const ev = snapshot.events;
  const team = teamPlaces(snapshot);
  const events = Array.from({ length: ev.count }, (_, e) => ({
    id: ev.ids[e],
    start: dayString(ev.startDay[e]),
    end: null,
    rounds: ev.rounds[e] > 0 ? ev.rounds[e] : null,
    participants: ev.participants[e] > 0 ? ev.participants[e] : null,
    // A team event scores event points only where its teams are ranked by a team rule.
    placed: snapshot.standings.eventPlacements[e] !== PLACEMENTS_NONE || team.teams.has(e),
    teams: team.teams.get(e),
  }));
  const st = team.count === 0 ? snapshot.standings : withTeamPlaces(snapshot.standings, team);
  let placements: RankingPlacement[] | undefined;
  const facts: RankingFacts = {
    players: snapshot.players.length,
    events,
    games: snapshot.games,
    gameEvent: snapshot.gameEvent,
    gameRound: snapshot.gameRound,
    player: snapshot.player,
    faction: snapshot.faction,
    result: snapshot.result,
    score: snapshot.score,
    // One object per placement is built only if something asks for them: the ratings read
    // the columns, and an object per placement of a large data set holds up the serving thread.
    get placements() {
      return (placements ??= placementsOf(st));
    },
    placementColumns: st,
    factionIds: snapshot.factions.map((f) => f.id),
  };
  factsCache.set(snapshot, facts);
  return facts;
}

/** The standings' placements followed by the team places of ranked team events. */
function withTeamPlaces(st: Snapshot['standings'], team: TeamPlaces): PlacementColumns {
  const join = (a: Int32Array, b: number[]) => {
    const out = new Int32Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return {
    count: st.count + team.count,
    event: join(st.event, team.event),
    player: join(st.player, team.player),
    placement: join(st.placement, team.placement),
    faction: join(st.faction, team.faction),
  };
}

/** The placements with a known player and placement, as RankingPlacements. */
function placementsOf(st: PlacementColumns): RankingPlacement[] {
  const placements: RankingPlacement[] = [];
  for (let i = 0; i < st.count; i += 1) {
    if (st.placement[i] > 0 && st.player[i] >= 0) {
      placements.push({
        event: st.event[i],
        player: st.player[i],
        placement: st.placement[i],
        faction: st.faction[i],
      });
    }
  }
  return placements;
}

/** Game indexes of one system: its rows [rowStart, rowEnd) hold games rowStart/2 .. rowEnd/2. */
export function systemGames(snapshot: Snapshot, system: number): Int32Array {
  const { rowStart, rowEnd } = snapshot.systems[system];
  return Int32Array.from({ length: (rowEnd - rowStart) >> 1 }, (_, i) => (rowStart >> 1) + i);
}

/**
 * Per side row, the player's default Glicko-2 rating before that game's period, each system
 * rated on its own games (ratings of different games never mix); NaN when unknown.
 */
export const preGameRatings = snapshotData('pre-game-ratings', (snapshot) => {
  const facts = rankingFacts(snapshot);
  const pre = new Float64Array(snapshot.sides).fill(Number.NaN);
  for (let s = 0; s < snapshot.systems.length; s += 1) {
    const { rowStart, rowEnd } = snapshot.systems[s];
    const system = computePreGameRatings(facts, systemGames(snapshot, s));
    pre.set(system.subarray(rowStart, rowEnd), rowStart);
  }
  return pre;
});

/**
 * Per side row, the Elo expectation (Elo 1978) of its player against the opponent on their
 * pre-game Glicko-2 ratings, NaN when either is unrated: the per-side part of faction-stats'
 * `skill` (docs/statistics.md#skill), computed once per snapshot so requests only add it up.
 */
export const sideExpectedScores = snapshotData('side-expected-scores', (snapshot) => {
  const pre = preGameRatings(snapshot);
  const expected = new Float64Array(snapshot.sides);
  for (let r = 0; r < snapshot.sides; r += 1) {
    const own = pre[r];
    const other = pre[r ^ 1];
    expected[r] = own === own && other === other ? eloExpected(own, other) : Number.NaN;
  }
  return expected;
});
