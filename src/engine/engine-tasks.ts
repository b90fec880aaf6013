/**
 * Engine calls that may take long on a large snapshot, and so run on the engine thread rather
 * than the serving thread (docs/architecture.md#engine-thread): rating every game in scope with
 * the parameters of a request (Glickman 2012; Elo 1978; best-N event points) is linear in games,
 * about a second at a million. Each is a pure function of a snapshot and plain arguments.
 */
import { leaderboard } from './ratings/leaderboard.ts';

export const ENGINE_TASKS = { leaderboard } as const;

export type EngineTaskName = keyof typeof ENGINE_TASKS;

/** The arguments of a task after its snapshot. */
export type EngineTaskArgs<K extends EngineTaskName> =
  Parameters<(typeof ENGINE_TASKS)[K]> extends [unknown, ...infer A] ? A : never;

export type EngineTaskResult<K extends EngineTaskName> = ReturnType<(typeof ENGINE_TASKS)[K]>;
