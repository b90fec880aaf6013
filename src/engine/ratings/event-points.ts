/**
 * Each player's best-N event points over the rated games (docs/ratings.md "Points"): an event's
 * placements, imported or derived from its games, scored by src/engine/ratings/points.ts.
 */
import { eventMaximum, placeScore, placementsFromGames } from './points.ts';
import type { PointsOptions, StandingInput } from './points.ts';
import type { RankingFacts, RankingPlacement } from './ranking-facts.ts';

export interface EventPoints {
  /** Per player, the scores of their events (in no particular order). */
  scores: Map<number, number[]>;
  /** Per player, the start date of their latest scored event. */
  lastEvent: Map<number, string>;
  /** Per player, each scored event and its score. */
  scored: Map<number, Array<{ event: number; score: number }>>;
}

/**
 * Each player's event scores: an event's placements from `facts.placements` when it has any
 * (imported, or derived by the snapshot), otherwise from its counted games (wins, then total
 * score). Only players who played (or entered with) a listed faction score.
 */
export function eventPoints(
  facts: RankingFacts,
  order: ArrayLike<number>,
  options: PointsOptions,
  factions: ReadonlySet<number> | null,
): EventPoints {
  const byEvent = new Map<number, number[]>();
  for (let i = 0; i < order.length; i += 1) {
    const g = order[i];
    const e = facts.gameEvent[g];
    const list = byEvent.get(e);
    if (list === undefined) byEvent.set(e, [g]);
    else list.push(g);
  }
  const given = new Map<number, RankingPlacement[]>();
  for (const p of facts.placements) {
    if (p.placement <= 0 || p.player < 0) continue;
    const list = given.get(p.event);
    if (list === undefined) given.set(p.event, [p]);
    else list.push(p);
  }
  // Only events in scope: those with counted games (the caller's filter) or, with no game
  // selection at all, every event with placements.
  const events = new Set<number>(byEvent.keys());
  const inScope = (f: number): boolean => factions === null || factions.has(f);

  const scores = new Map<number, number[]>();
  const lastEvent = new Map<number, string>();
  const scored = new Map<number, Array<{ event: number; score: number }>>();
  for (const e of events) {
    const event = facts.events[e];
    const eventGames = byEvent.get(e) ?? [];
    const players = new Set<number>();
    for (const g of eventGames) {
      for (const r of [2 * g, 2 * g + 1])
        if (inScope(facts.faction[r])) players.add(facts.player[r]);
    }
    let placements: Map<number, number>;
    let maxRound = -1;
    for (const g of eventGames) maxRound = Math.max(maxRound, facts.gameRound[g]);
    const fromEntries = given.get(e);
    if (fromEntries !== undefined) {
      placements = new Map(fromEntries.map((p) => [p.player, p.placement]));
      for (const p of fromEntries) if (inScope(p.faction)) players.add(p.player);
    } else {
      const standings = new Map<number, StandingInput>();
      for (const g of eventGames) {
        for (const r of [2 * g, 2 * g + 1]) {
          const p = facts.player[r];
          let st = standings.get(p);
          if (st === undefined) {
            st = { player: p, wins: 0, draws: 0, score: 0 };
            standings.set(p, st);
          }
          if (facts.result[r] === 2) st.wins += 1;
          else if (facts.result[r] === 1) st.draws += 1;
          if (!Number.isNaN(facts.score[r])) st.score += facts.score[r];
        }
      }
      placements = placementsFromGames([...standings.values()]);
    }
    let worst = 0;
    for (const pl of placements.values()) worst = Math.max(worst, pl);
    const participants = Math.max(event.participants ?? 0, placements.size, worst);
    const rounds =
      event.rounds !== null && event.rounds > 0
        ? event.rounds
        : maxRound > 0
          ? maxRound
          : event.end !== null && event.end > event.start
            ? options.oneDayMaxRounds + 1
            : options.oneDayMaxRounds;
    const maximum = eventMaximum(rounds, participants, options);
    for (const p of players) {
      const placement = placements.get(p);
      if (placement === undefined) continue;
      const score = placeScore(maximum, participants, placement);
      const list = scores.get(p);
      if (list === undefined) scores.set(p, [score]);
      else list.push(score);
      const own = scored.get(p);
      if (own === undefined) scored.set(p, [{ event: e, score }]);
      else own.push({ event: e, score });
      const last = lastEvent.get(p);
      if (last === undefined || event.start > last) lastEvent.set(p, event.start);
    }
  }
  return { scores, lastEvent, scored };
}
