/**
 * Every statistic the service answers, declared once (docs/architecture.md#adding-a-statistics-route):
 * the engine threads' tasks (engine-tasks.ts) and the warm-up's parts (warm-engine.ts) derive
 * from this list, and each statistics route names one of its tasks. Rating every game in scope
 * with the parameters of a request (Glickman 2012; Elo 1978; best-N event points) is linear in
 * games, the dearest of them on a large data set; the others read their caches.
 */
import { armyMatchup } from './army-matchup.ts';
import {
  factionClusters,
  itemClusters,
  matchupClusters,
  scenarioClusters,
} from './cube/cluster-cubes.ts';
import { factionCube } from './cube/faction-cube.ts';
import { itemCube } from './cube/item-cube.ts';
import { matchupCube } from './cube/matchup-cube.ts';
import { playerPairs } from './cube/player-pairs.ts';
import { runTableCube } from './cube/run-table-cube.ts';
import { scenarioCube } from './cube/scenario-cube.ts';
import { scenarioStatsCube } from './cube/scenario-stats-cube.ts';
import { eventList } from './events/event-list.ts';
import { factionStats } from './faction-stats.ts';
import { itemNameRank, itemUseStats } from './item-use-stats.ts';
import { leaderboard } from './ratings/leaderboard.ts';
import { playerDuplicates } from './players/player-duplicates.ts';
import { shortIdLengths } from './ratings/short-ids.ts';
import { preGameRatings, sideExpectedScores } from './ratings/snapshot-facts.ts';
import { scenarioCatalogue } from './scenario.ts';
import { scenarioStats } from './scenario-stats.ts';
import { DEFAULT_METHOD } from '../domain/rating-methods.ts';
import { statistic } from './statistic.ts';
import { factionStrength } from './strength/faction-strength.ts';
import { forecast } from './strength/forecast.ts';
import { eventProjection } from './projection/event-projection.ts';
import { scopeModelKey } from './strength/scope-model.ts';
import { forecastAccuracy } from './strength/forecast-accuracy.ts';
import { forecastAccuracyCsv } from './strength/forecast-accuracy-csv.ts';
import type { ArgsAfterSnapshot } from './statistic.ts';
import { teamMatrix } from './team-pairing/team-matrix.ts';
import { teamPairing } from './team-pairing/team-pairing.ts';

/** The pre-game ratings behind `skill` and the expected scores they give each side. */
const EXPECTED = [preGameRatings, sideExpectedScores];

/**
 * The ratings of one parameter set, which are computed once and kept by the thread that computed
 * them (leaderboard.ts).
 */
function ratingsKey([common, options]: ArgsAfterSnapshot<typeof leaderboard>): string {
  const { method = DEFAULT_METHOD, asOf, factions } = options;
  return JSON.stringify([common, method, options[method], asOf, factions]);
}

/**
 * A system's backtest (forecast-accuracy.ts), kept by the thread that ran it: the run is the
 * dear part, and any filter, the JSON's or the CSV's, then only reads it.
 */
function backtestKey([filter]: ArgsAfterSnapshot<typeof forecastAccuracy>): string {
  return `backtest\u0000${filter.system}`;
}

/**
 * The joint model of a filter's games (scope-model.ts), fitted by the thread that has it: the
 * fit is the dear part, and faction-strength on the same games then only reads it.
 */
function scopeKey([filter]: ArgsAfterSnapshot<typeof factionStrength>): string {
  return `scope-model\u0000${scopeModelKey(filter)}`;
}

/** The same, for army-matchup's skill-adjusted cells; its plain cells need no model. */
function skillAdjustedKey([request]: ArgsAfterSnapshot<typeof armyMatchup>): string | null {
  return request.skillAdjusted ? scopeKey([request]) : null;
}

/** A system's joint and draw models (system-model.ts), fitted once per data version. */
function systemModelKey([request]: ArgsAfterSnapshot<typeof forecast | typeof teamMatrix>): string {
  return `system-model\u0000${request.system ?? ''}`;
}

/**
 * The model of a system as of an event's first day (projection/model-as-of.ts), kept by the
 * thread that fitted it, whose other fits of the system start from it.
 */
function projectionKey([request]: ArgsAfterSnapshot<typeof eventProjection>): string {
  return `model-as-of\u0000${request.system ?? ''}\u0000${request.event}`;
}

/** A system's alike names and player records (players/alike-names.ts, player-facts.ts). */
function duplicatesKey([request]: ArgsAfterSnapshot<typeof playerDuplicates>): string {
  return `player-duplicates\u0000${request.system}`;
}

export const STATISTICS = [
  statistic({
    task: 'leaderboard',
    run: leaderboard,
    caches: [[shortIdLengths], []],
    affinity: ratingsKey,
    // With `player`, that player's rating history is kept beside the ratings.
    warmKey: (args) =>
      args[1].player === undefined
        ? ratingsKey(args)
        : `${ratingsKey(args)}\u0000${args[1].player}`,
  }),
  statistic({
    task: 'factionStats',
    run: factionStats,
    caches: [
      [...EXPECTED, factionCube, factionClusters],
      [playerPairs, runTableCube],
    ],
  }),
  statistic({
    task: 'armyMatchup',
    run: armyMatchup,
    caches: [[], [matchupCube, matchupClusters]],
    // Skill-adjusted cells read the joint model of the filter's games, as faction-strength does.
    affinity: skillAdjustedKey,
    warmKey: skillAdjustedKey,
  }),
  statistic({
    task: 'itemUseStats',
    run: itemUseStats,
    caches: [[...EXPECTED, itemCube, itemNameRank, itemClusters], []],
  }),
  statistic({
    task: 'scenarioStats',
    run: scenarioStats,
    caches: [[], [scenarioStatsCube, scenarioClusters]],
  }),
  statistic({ task: 'scenarioCatalogue', run: scenarioCatalogue, caches: [[], [scenarioCube]] }),
  statistic({ task: 'eventList', run: eventList, caches: [[], []] }),
  statistic({
    task: 'factionStrength',
    run: factionStrength,
    caches: [[], []],
    affinity: scopeKey,
    warmKey: scopeKey,
  }),
  statistic({
    task: 'forecast',
    run: forecast,
    caches: [[], []],
    affinity: systemModelKey,
    warmKey: systemModelKey,
  }),
  statistic({
    task: 'forecastAccuracy',
    run: forecastAccuracy,
    caches: [[], []],
    affinity: backtestKey,
    warmKey: backtestKey,
  }),
  statistic({
    task: 'forecastAccuracyCsv',
    run: forecastAccuracyCsv,
    caches: [[], []],
    affinity: backtestKey,
    warmKey: backtestKey,
  }),
  statistic({
    task: 'teamMatrix',
    run: teamMatrix,
    caches: [[], []],
    affinity: systemModelKey,
    warmKey: systemModelKey,
  }),
  statistic({
    task: 'eventProjection',
    run: eventProjection,
    caches: [[], []],
    affinity: projectionKey,
    warmKey: projectionKey,
  }),
  // The draft reads no snapshot cache and keeps nothing, but a draft from nothing at eight
  // players is enough CPU to hold an answering thread (docs/team-pairing.md#speed): heavy, so
  // it goes to the engine pool's expensive lane with no key made of the captain's matrix.
  statistic({ task: 'teamPairing', run: teamPairing, caches: [[], []], heavy: true }),
  // The first pass over a system finds its alike names and its players' records, enough CPU at
  // scale to hold an answering thread; the thread keeps both, and later passes only weigh the
  // alike pairs (docs/statistics.md#duplicate-players).
  statistic({
    task: 'playerDuplicates',
    run: playerDuplicates,
    caches: [[], []],
    affinity: duplicatesKey,
    warmKey: duplicatesKey,
  }),
] as const;

/** A statistic's engine task name. */
export type StatisticTask = (typeof STATISTICS)[number]['task'];
