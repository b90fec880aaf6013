/**
 * The engine calls that run on the engine threads rather than the serving thread
 * (docs/architecture.md#engine-thread): every statistic's one engine function, by its task name
 * (statistics.ts), and the warm-up of a snapshot's caches. Each is a pure function of a snapshot
 * and plain arguments, and answers plain data.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { Statistic } from './statistic.ts';
import { STATISTICS } from './statistics.ts';
import { warmEngine } from './warm-engine.ts';

/** Attaches every per-snapshot cache on this thread, so the first request finds them ready. */
function warm(snapshot: Snapshot): null {
  warmEngine(snapshot);
  return null;
}

type Statistics = (typeof STATISTICS)[number];

/** Each statistic's function by its task name, and the warm-up. */
type EngineTasks = { readonly [S in Statistics as S['task']]: S['run'] } & {
  readonly warm: typeof warm;
};

const BY_TASK: ReadonlyMap<string, Statistic> = new Map(STATISTICS.map((s) => [s.task, s]));
if (BY_TASK.size !== STATISTICS.length) throw new Error('two statistics share a task name');

export const ENGINE_TASKS = {
  ...Object.fromEntries(STATISTICS.map((s) => [s.task, s.run])),
  warm,
} as EngineTasks;

export type EngineTaskName = keyof EngineTasks;

/** Each task's arguments after its snapshot, by task name. */
type EngineTaskArgMap = {
  [K in EngineTaskName]: Parameters<EngineTasks[K]> extends [unknown, ...infer A] ? A : never;
};

/** The arguments of a task after its snapshot. */
export type EngineTaskArgs<K extends EngineTaskName> = EngineTaskArgMap[K];

export type EngineTaskResult<K extends EngineTaskName> = ReturnType<EngineTasks[K]>;

/** Runs `task` on this thread (where no engine thread is given). */
export function runEngineTask<K extends EngineTaskName>(
  task: K,
  snapshot: Snapshot,
  ...args: EngineTaskArgs<K>
): EngineTaskResult<K> {
  const run = ENGINE_TASKS[task] as (s: Snapshot, ...rest: unknown[]) => EngineTaskResult<K>;
  return run(snapshot, ...args);
}

/** The declared key of `task` called with `args`, or null when it declares none. */
function declaredKey(
  task: EngineTaskName,
  args: readonly unknown[],
  key: 'affinity' | 'warmKey',
): string | null {
  const of = BY_TASK.get(task)?.[key] as ((args: readonly unknown[]) => string | null) | undefined;
  return of === undefined ? null : of(args);
}

/**
 * Which engine thread should run a task, when it matters: a statistic that keeps what it
 * computes (the rankings' ratings of one parameter set, leaderboard.ts) declares a key, so
 * requests that share it go to that thread rather than computing it again beside it
 * (statistic.ts). Null: any.
 */
export function taskAffinity<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
): string | null {
  return declaredKey(task, args, 'affinity');
}

/**
 * What a task computes once and keeps, when that is the bulk of its cost (statistic.ts): a
 * thread that has computed it answers the task from what it keeps; one that has not computes it
 * over every game in scope, so the pool schedules such a task as expensive
 * (docs/operations.md#limits). Null: the task is always cheap.
 */
export function taskWarmKey<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
): string | null {
  return declaredKey(task, args, 'warmKey');
}

/**
 * Whether every call of `task` is heavy work that keeps nothing (statistic.ts): it is scheduled
 * as expensive on the engine pool, and a server thread sends it there rather than computing it
 * itself (docs/architecture.md#threads). Its arguments make no key.
 */
export function taskIsHeavy(task: EngineTaskName): boolean {
  return BY_TASK.get(task)?.heavy === true;
}

/**
 * Whether a server thread sends `task` to the main thread's engine pool: when it has a warm key
 * (what it computes is kept there, once for the service) or is heavy (it would hold the thread
 * that took the request). Null keys and light tasks are computed where the request was taken.
 */
export function taskLeavesThread<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
): boolean {
  return taskIsHeavy(task) || taskWarmKey(task, args) !== null;
}
