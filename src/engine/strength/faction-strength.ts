/**
 * faction-strength (docs/statistics.md#faction-strength): per faction its raw win rate and its
 * strength after pilot skill, from the joint model fitted to the filter's games, beside the
 * average pre-game rating of its pilots and how much of it one player carries.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES } from '../engine-result.ts';
import { factionRef } from '../entity-refs.ts';
import { winRate, winRateInterval } from '../win-rate.ts';
import type { EngineResult } from '../engine-result.ts';
import type { FactionRef } from '../entity-refs.ts';
import { resolveFactions, sampleOf } from '../filter.ts';
import type { CommonFilter } from '../filter.ts';
import { isolateName } from '../../domain/bidi-controls.ts';
import type { DrawRule, Methodology } from '../../domain/methodology.ts';
import type { Interval } from '../intervals.ts';
import { monthlyPerformance } from './monthly-performance.ts';
import type { MonthlyPerformance } from './monthly-performance.ts';
import { factionEstimate } from './strength-estimates.ts';
import type { Estimate } from './strength-estimates.ts';
import { scopeModel } from './scope-model.ts';
import type { ScopeModel } from './scope-model.ts';

/** The common filter and the methodology switches (mirrors out, draws half by default). */
export interface FactionStrengthRequest extends CommonFilter, Partial<Methodology> {}

/** A faction whose top player plays more than this share of its games is flagged. */
export const TOP_PLAYER_WARNING_SHARE = 0.25;

export interface FactionStrengthRow {
  faction: FactionRef;
  /**
   * Rated games in scope (two known players, one point between the sides), mirrors out unless
   * asked in: then each mirror game gives its faction two sides.
   */
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** (wins + draws / 2) / games, or wins / (games − draws) when draws are left out. */
  winRate: number | null;
  winRateInterval: Interval | null;
  /** Expected score of an average pilot of it against the field, after pilot skill. */
  strength: Estimate | null;
  /** Mean pre-game Glicko-2 rating of its pilots over its games. */
  pilotRating: number | null;
  /** Mean pre-game rating over every side in scope (the same on every row). */
  fieldRating: number | null;
  /** Share of its games played by its most frequent player. */
  topPlayerShare: number | null;
  lowSample: boolean;
  /** Only for the factions asked by `monthly`: its performance against expectation per month. */
  monthly?: MonthlyPerformance[];
}

export interface FactionStrengthData {
  factions: FactionStrengthRow[];
  model: {
    /** β: the weight of the Glicko-2 forecast's logit (1 = as Glicko-2 says). */
    skillWeight: number;
    dispersion: number;
    games: number;
    outcome: 'score-share' | 'result';
  };
}

/** Per faction: its non-mirror sides' results, ratings and players. */
interface Tally {
  games: number;
  wins: number;
  draws: number;
  rating: number;
  players: Map<number, number>;
}

type Tallies = { byFaction: Tally[]; field: number | null };

/** Per fitted scope, its tallies without and with mirrors: a pass over every game, done once. */
const talliesOf = new WeakMap<ScopeModel, Array<Tallies | undefined>>();

function tallies(snapshot: Snapshot, fit: ScopeModel, mirrors: boolean): Tallies {
  let kept = talliesOf.get(fit);
  if (kept === undefined) talliesOf.set(fit, (kept = []));
  return (kept[mirrors ? 1 : 0] ??= tally(snapshot, fit, mirrors));
}

function tally(snapshot: Snapshot, fit: ScopeModel, mirrors: boolean): Tallies {
  const { games, rows } = fit;
  const byFaction = Array.from(
    { length: games.factions },
    (): Tally => ({
      games: 0,
      wins: 0,
      draws: 0,
      rating: 0,
      players: new Map(),
    }),
  );
  const add = (f: number, result: number, rating: number, player: number) => {
    if (f < 0) return;
    const t = byFaction[f];
    t.games += 1;
    if (result === 1) t.wins += 1;
    else if (result === 0.5) t.draws += 1;
    t.rating += rating;
    t.players.set(player, (t.players.get(player) ?? 0) + 1);
  };
  let fieldSum = 0;
  for (const r of rows) {
    const g = games.game[r];
    fieldSum += games.ratingA[r] + games.ratingB[r];
    if (!mirrors && games.factionA[r] === games.factionB[r]) continue;
    add(games.factionA[r], games.result[r], games.ratingA[r], snapshot.player[2 * g]);
    add(games.factionB[r], 1 - games.result[r], games.ratingB[r], snapshot.player[2 * g + 1]);
  }
  return { byFaction, field: rows.length > 0 ? fieldSum / (2 * rows.length) : null };
}

/**
 * Each faction's strength after pilot skill in the filter's scope, and for the faction ids of
 * `monthly` their performance against expectation per month (docs/statistics.md#faction-strength).
 */
export function factionStrength(
  snapshot: Snapshot,
  request: FactionStrengthRequest,
  monthly: readonly string[] = [],
): EngineResult<FactionStrengthData, FactionStrengthRequest> {
  const { draws, mirrors, ...filter } = request;
  const rule: DrawRule = draws ?? 'half';
  // The model is fitted to the common filter's games whatever the switches say (cached by it).
  const fit = scopeModel(snapshot, filter);
  const systemFactions = snapshot.systems[fit.scope.system].factions;
  const asked = new Set(
    (resolveFactions(snapshot, fit.scope.system, [...monthly], '/monthly') ?? []).map((f) =>
      systemFactions.indexOf(f),
    ),
  );
  const { byFaction, field } = tallies(snapshot, fit, mirrors === 'include');
  const warnings: string[] = [];
  const factions: FactionStrengthRow[] = [];
  byFaction.forEach((t, f) => {
    if (t.games === 0) return;
    const top = Math.max(...t.players.values()) / t.games;
    const ref = factionRef(snapshot, systemFactions[f]);
    if (top > TOP_PLAYER_WARNING_SHARE) {
      warnings.push(
        `one player plays ${Math.round(top * 100)} % of ${isolateName(ref.name)}'s games: its figures are largely that player's`,
      );
    }
    factions.push({
      faction: ref,
      games: t.games,
      wins: t.wins,
      draws: t.draws,
      losses: t.games - t.wins - t.draws,
      winRate: winRate(t.wins, t.draws, t.games, rule),
      winRateInterval: winRateInterval(t.wins, t.draws, t.games, rule),
      strength: factionEstimate(fit, f),
      pilotRating: t.rating / t.games,
      fieldRating: field,
      topPlayerShare: top,
      lowSample: t.games < LOW_SAMPLE_GAMES,
      ...(asked.has(f) ? { monthly: monthlyPerformance(fit, f) } : {}),
    });
  });
  factions.sort((x, y) => y.games - x.games || (x.faction.id < y.faction.id ? -1 : 1));
  if (fit.rows.length === 0) warnings.push(EMPTY_WARNING);
  const { model } = fit;
  return {
    data: {
      factions,
      model: {
        skillWeight: model.fit.theta[model.layout.skillColumn],
        dispersion: model.fit.dispersion,
        games: fit.rows.length,
        outcome: fit.games.scoreShare ? 'score-share' : 'result',
      },
    },
    filter: request,
    sample: sampleOf(snapshot, fit.scope),
    warnings,
  };
}
