/**
 * Warnings about load that come in floods (requests refused as busy, connections over a limit)
 * logged once per interval with their counts (docs/operations.md#logs): the first of a kind at
 * once, the rest summed when the interval ends. One line a kind per interval, whatever the rate.
 */
import type { FastifyBaseLogger } from 'fastify';

/** How often each kind is logged at most. */
export const THROTTLED_LOG_INTERVAL_MS = 10_000;

export class ThrottledLog {
  private readonly pending = new Map<string, number>();
  private readonly open = new Set<string>();

  private readonly log: FastifyBaseLogger;
  private readonly intervalMs;
  constructor(log: FastifyBaseLogger, intervalMs = THROTTLED_LOG_INTERVAL_MS) {
    this.log = log;
    this.intervalMs = intervalMs;
  }

  /** Notes one `kind` event: logged now when it is the interval's first, else counted. */
  note(kind: string, message: string, detail: Record<string, unknown> = {}): void {
    if (!this.open.has(kind)) {
      this.open.add(kind);
      this.log.warn({ event: kind, count: 1, ...detail }, message);
      this.close(kind, message);
      return;
    }
    this.pending.set(kind, (this.pending.get(kind) ?? 0) + 1);
  }

  /** Ends `kind`'s interval after `intervalMs`, logging what it counted meanwhile. */
  private close(kind: string, message: string): void {
    setTimeout(() => {
      const count = this.pending.get(kind) ?? 0;
      this.pending.delete(kind);
      if (count === 0) {
        this.open.delete(kind);
        return;
      }
      this.log.warn(
        { event: kind, count, intervalMs: this.intervalMs },
        `${message} (${count} more in the last ${this.intervalMs / 1000} s)`,
      );
      this.close(kind, message);
    }, this.intervalMs).unref();
  }
}
