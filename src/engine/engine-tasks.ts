/**
 * The engine calls that run on the engine threads rather than the serving thread
 * (docs/architecture.md#engine-thread): every statistics route's one engine function, and the
 * warm-up of a snapshot's caches. Rating every game in scope with the parameters of a request
 * (Glickman 2012; Elo 1978; best-N event points) is linear in games, about a second at a
 * million; the others take a millisecond or two, which the serving thread then spends on HTTP.
 * Each is a pure function of a snapshot and plain arguments, and answers plain data.
 */
import { armyMatchup } from './army-matchup.ts';
import { eventList } from './events/event-list.ts';
import { factionStats } from './faction-stats.ts';
import { itemUseStats } from './item-use-stats.ts';
import { leaderboard } from './ratings/leaderboard.ts';
import type { LeaderboardOptions } from './ratings/leaderboard.ts';
import { scenarioCatalogue } from './scenario.ts';
import { scenarioStats } from './scenario-stats.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { CommonFilter } from './filter.ts';
import { warmEngine } from './warm-engine.ts';

/** Attaches every per-snapshot cache on this thread, so the first request finds them ready. */
function warm(snapshot: Snapshot): null {
  warmEngine(snapshot);
  return null;
}

export const ENGINE_TASKS = {
  leaderboard,
  factionStats,
  armyMatchup,
  itemUseStats,
  scenarioStats,
  scenarioCatalogue,
  eventList,
  warm,
} as const;

export type EngineTaskName = keyof typeof ENGINE_TASKS;

/** The arguments of a task after its snapshot. */
export type EngineTaskArgs<K extends EngineTaskName> =
  Parameters<(typeof ENGINE_TASKS)[K]> extends [unknown, ...infer A] ? A : never;

export type EngineTaskResult<K extends EngineTaskName> = ReturnType<(typeof ENGINE_TASKS)[K]>;

/** Runs `task` on this thread (where no engine thread is given). */
export function runEngineTask<K extends EngineTaskName>(
  task: K,
  snapshot: Snapshot,
  ...args: EngineTaskArgs<K>
): EngineTaskResult<K> {
  const run = ENGINE_TASKS[task] as (s: Snapshot, ...rest: unknown[]) => EngineTaskResult<K>;
  return run(snapshot, ...args);
}

/**
 * Which engine thread should run a task, when it matters: the ratings of one parameter set
 * are computed once and kept by the thread that computed them (leaderboard.ts), so requests
 * that share them go to that thread rather than computing them again beside it. Null: any.
 */
export function taskAffinity<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
): string | null {
  if (task !== 'leaderboard') return null;
  const [common, options] = args as unknown as [CommonFilter, LeaderboardOptions];
  const { method, elo, glicko2, points, asOf, factions } = options;
  return JSON.stringify([common, method, elo, glicko2, points, asOf, factions]);
}

/**
 * What a task computes once and keeps, when that is the bulk of its cost: the ratings of one
 * parameter set and, with `player`, that player's rating history (leaderboard.ts). A thread
 * that has computed it answers the task in milliseconds; one that has not takes up to seconds
 * at a million games, so the pool schedules such a task as expensive (docs/operations.md#limits).
 * Null: the task is always cheap.
 */
export function taskWarmKey<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
): string | null {
  const affinity = taskAffinity(task, args);
  if (affinity === null) return null;
  const [, options] = args as unknown as [CommonFilter, LeaderboardOptions];
  return options.player === undefined ? affinity : `${affinity}\u0000${options.player}`;
}
