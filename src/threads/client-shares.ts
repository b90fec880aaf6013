/**
 * Each client's share of the engine pool's expensive lane (docs/operations.md#limits): how many
 * of its expensive tasks run and wait, the bound on them, and whose waiting task a thread free
 * for an expensive one takes next, so that one client sending expensive requests at its full
 * rate cannot starve another's.
 */
import { ProblemError } from '../errors/problem.ts';

/** A waiting task as the shares see it: expensive or not, and the client it is counted against. */
export interface SharedTask {
  readonly expensive: boolean;
  /** Null: counted against no client (the pool's own work). */
  readonly client: string | null;
}

/** One client's expensive tasks. */
interface Share {
  running: number;
  waiting: number;
  /** When one of its tasks last started (the shares' count of starts; 0: none yet). */
  servedAt: number;
}

export class ClientShares {
  private readonly shares = new Map<string, Share>();
  /** Expensive tasks started so far: the clock of Share.servedAt. */
  private started = 0;

  private readonly running: number;
  private readonly waiting: number;
  /**
   * @param running a client's expensive tasks that may run at once; its others wait
   * @param waiting how many more of them may wait; one more is refused
   */
  constructor(running: number, waiting: number) {
    this.running = running;
    this.waiting = waiting;
  }

  /**
   * Null when `client` may queue one more expensive task, else the 429 `too-many-computations`
   * to refuse it with (docs/problems.md).
   */
  refusal(client: string | null): ProblemError | null {
    const share = client === null ? undefined : this.shares.get(client);
    if (share === undefined) return null;
    const held = share.running + share.waiting;
    if (held < this.running + this.waiting) return null;
    return new ProblemError(
      'too-many-computations',
      `this client already has ${held} long computations running or waiting; retry once one is answered`,
      { headers: { 'retry-after': '2' } },
    );
  }

  /**
   * Moves `task`'s client's counts of waiting and running expensive tasks (no client or not
   * expensive: nothing); a start is its client's turn. A client with none left is forgotten.
   */
  count(task: SharedTask, waiting: number, running: number): void {
    if (!task.expensive || task.client === null) return;
    let share = this.shares.get(task.client);
    if (share === undefined) {
      share = { running: 0, waiting: 0, servedAt: 0 };
      this.shares.set(task.client, share);
    }
    share.waiting += waiting;
    share.running += running;
    if (running > 0) share.servedAt = ++this.started;
    if (share.waiting <= 0 && share.running <= 0) this.shares.delete(task.client);
  }

  /**
   * Which of `queues` (one a thread) starts an expensive task next, among those whose thread is
   * `free`: the one whose next task (next) is of the client served least recently, the older
   * task on a tie; -1: none.
   */
  turn(
    queues: readonly (readonly (SharedTask & { id: number })[])[],
    free: (i: number) => boolean,
  ): number {
    let best = -1;
    let bestServedAt = Number.POSITIVE_INFINITY;
    let bestId = Number.POSITIVE_INFINITY;
    for (let i = 0; i < queues.length; i++) {
      if (!free(i)) continue;
      const at = this.next(queues[i]);
      if (at < 0) continue;
      const task = queues[i][at];
      const servedAt = this.servedAt(task);
      if (servedAt < bestServedAt || (servedAt === bestServedAt && task.id < bestId)) {
        best = i;
        bestServedAt = servedAt;
        bestId = task.id;
      }
    }
    return best;
  }

  /** When `task`'s client last started an expensive task (0: never, or no client). */
  private servedAt(task: SharedTask): number {
    return task.client === null ? 0 : (this.shares.get(task.client)?.servedAt ?? 0);
  }

  /**
   * The index in `queue` of the expensive task to start next: that of the client served least
   * recently among those running fewer than their share, the oldest of its tasks (tasks of no
   * client count as never served); -1 when none may start.
   */
  next(queue: readonly SharedTask[]): number {
    let chosen = -1;
    let chosenServedAt = Number.POSITIVE_INFINITY;
    for (let i = 0; i < queue.length; i++) {
      const task = queue[i];
      if (!task.expensive) continue;
      const share = task.client === null ? undefined : this.shares.get(task.client);
      if (share !== undefined && share.running >= this.running) continue;
      const servedAt = this.servedAt(task);
      if (servedAt < chosenServedAt) {
        chosen = i;
        chosenServedAt = servedAt;
      }
    }
    return chosen;
  }
}
