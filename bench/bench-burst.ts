/**
 * The burst section of `npm run bench` (docs/operations.md#limits): a burst of expensive
 * uncached requests (rankings with Glicko-2 parameters no thread has computed), then cheap
 * uncached requests (faction-stats with a filter not asked before) every 100 ms and health
 * every 20 ms, on a server with the service's own request deadline. It reports how the burst
 * was answered, when cheap requests answered 200 again and stayed so, beside the burst's own
 * deadline, and the longest health wait.
 */
import { percentile } from './bench-queries.ts';

const ORIGIN = 'http://localhost:8080';
/** A cheap request answered 200 within this counts as answered. */
const QUICK_MS = 1000;

export interface BurstResult {
  /** Expensive requests sent at once. */
  size: number;
  /** The server's request deadline, MUSTER_REQUEST_TIMEOUT_MS. */
  deadlineMs: number;
  /** The burst's answers by status and problem type. */
  outcomes: Record<string, number>;
  /** When the last answer of the burst came, from its start. */
  burstAnsweredMs: number;
  /** Cheap requests sent, their answers by status and problem type, and how many did not answer 200 within 1 s. */
  cheapSent: number;
  cheapOutcomes: Record<string, number>;
  cheapFailed: number;
  /** From the burst's start: cheap requests sent after this all answered 200 within 1 s (0: all did). */
  cheapRecoveredMs: number;
  /** cheapRecoveredMs less the burst's own deadline (negative: before it). */
  cheapRecoveredAfterDeadlineMs: number;
  /** Cheap requests' times to answer while the burst was in flight. */
  cheapP50Ms: number;
  cheapMaxMs: number;
  healthProbes: number;
  healthMaxWaitMs: number;
  healthP99WaitMs: number;
  /** Health statuses seen (pass or warn) during and after the burst. */
  healthStatuses: Record<string, number>;
}

async function post(url: string, path: string, body: unknown): Promise<string> {
  try {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 200) return '200';
    const type = (JSON.parse(text) as { type?: string }).type ?? '';
    return `${response.status} ${type.replace('/problems/', '')}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

/**
 * Sends `size` expensive requests at once to `url` (uncached), cheap ones and health probes
 * beside them until the burst is answered and cheap requests have answered 200 for
 * `settleMs`, or `capMs` has passed. `offset` keeps each burst's parameters new.
 */
export async function measureBurst(
  url: string,
  size: number,
  deadlineMs: number,
  offset: number,
  settleMs = 3000,
  capMs = 120_000,
): Promise<BurstResult> {
  const started = performance.now();
  const outcomes: Record<string, number> = {};
  let answered = 0;
  let burstAnsweredMs = 0;
  const burst = Array.from({ length: size }, async (_, i) => {
    // Tau from 0.3 upwards in steps no two requests of any burst share.
    const tau = Number((0.3 + (offset + i) * 0.0005).toFixed(4));
    const outcome = await post(url, '/api/rankings', { glicko2: { tau } });
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    answered++;
    burstAnsweredMs = performance.now() - started;
  });
  const cheap: Array<{ sentMs: number; ok: boolean; tookMs: number }> = [];
  const cheapOutcomes: Record<string, number> = {};
  const health: number[] = [];
  const healthStatuses: Record<string, number> = {};
  let running = true;
  const settled = () => {
    if (answered < size) return false;
    const since = performance.now() - started - settleMs;
    const recent = cheap.filter((c) => c.sentMs >= since);
    return recent.length > 0 && recent.every((c) => c.ok) && cheap.at(-1)!.sentMs >= since;
  };
  const cheapLoop = (async () => {
    let k = 0;
    const inFlight: Promise<void>[] = [];
    while (running) {
      const sentMs = performance.now() - started;
      // A minimum no earlier request asked: an uncached computation, milliseconds of work.
      const body = { minGames: 1 + ((offset * 100 + k++) % 999_999) };
      inFlight.push(
        post(url, '/api/faction-stats', body).then((outcome) => {
          const tookMs = performance.now() - started - sentMs;
          // A 200 that took seconds is no answer to a cheap request: quick means within 1 s.
          cheap.push({ sentMs, ok: outcome === '200' && tookMs < QUICK_MS, tookMs });
          cheapOutcomes[outcome] = (cheapOutcomes[outcome] ?? 0) + 1;
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(inFlight);
  })();
  const healthLoop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const response = await fetch(`${url}/api/health`);
        const document = (await response.json()) as { status: string };
        healthStatuses[document.status] = (healthStatuses[document.status] ?? 0) + 1;
      } catch {
        healthStatuses.error = (healthStatuses.error ?? 0) + 1;
      }
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  while (!settled() && performance.now() - started < capMs) {
    await new Promise((r) => setTimeout(r, 100));
  }
  running = false;
  await Promise.all([...burst, cheapLoop, healthLoop]);
  cheap.sort((a, b) => a.sentMs - b.sentMs);
  const lastFailure = cheap.filter((c) => !c.ok).at(-1);
  const recoveredMs = lastFailure === undefined ? 0 : lastFailure.sentMs;
  const during = cheap.filter((c) => c.sentMs <= burstAnsweredMs).map((c) => c.tookMs);
  during.sort((a, b) => a - b);
  health.sort((a, b) => a - b);
  return {
    size,
    deadlineMs,
    outcomes,
    burstAnsweredMs,
    cheapSent: cheap.length,
    cheapOutcomes,
    cheapFailed: cheap.filter((c) => !c.ok).length,
    cheapRecoveredMs: recoveredMs,
    cheapRecoveredAfterDeadlineMs: recoveredMs - deadlineMs,
    cheapP50Ms: during.length === 0 ? 0 : percentile(during, 50),
    cheapMaxMs: during.length === 0 ? 0 : during[during.length - 1],
    healthProbes: health.length,
    healthMaxWaitMs: health[health.length - 1] ?? 0,
    healthP99WaitMs: health.length === 0 ? 0 : percentile(health, 99),
    healthStatuses,
  };
}
