/**
 * GET /api/health: application/health+json per draft-inadarei-api-health-check-06 §3, with
 * checks for the store, the snapshot being served and the last import.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { readServiceState } from '../../store/read-service-state.ts';
import type { LastImport } from '../../store/read-service-state.ts';
import { PROBE_TIMEOUT_MS, withinTime } from '../../store/store.ts';
import { API_VERSION } from '../../version.ts';
import type { AppContext } from '../app-context.ts';
import type { ResponseCache } from '../response-cache.ts';
import { isDraining } from '../graceful-close.ts';
import type { SnapshotStatus } from '../../snapshot/snapshot-status.ts';
import type { EnginePressure } from '../engine-runner.ts';

export const HEALTH_CONTENT_TYPE = 'application/health+json';

type Status = 'pass' | 'warn' | 'fail';

const StatusSchema = (description: string) =>
  Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')], { description });

const Check = Type.Object(
  {
    componentId: Type.Optional(
      Type.String({ description: 'The component checked (store: its dialect, e.g. "sqlite")' }),
    ),
    componentType: Type.Optional(Type.String({ description: '"datastore" or "component"' })),
    observedValue: Type.Optional(
      Type.Union([Type.Number(), Type.String(), Type.Null()], {
        description:
          'store:responseTime and redis:responseTime: ping time; store:dataVersion: the data version in the store; snapshot:games: games loaded (null before the first load); import:last: when the last import finished (null when none); thread:requests: the requests that thread answered',
      }),
    ),
    observedUnit: Type.Optional(Type.String({ description: 'Unit of observedValue, e.g. "ms"' })),
    status: StatusSchema("This check's status"),
    time: Type.Optional(
      Type.String({
        description: 'When the value was observed or the component last changed (ISO 8601)',
      }),
    ),
    output: Type.Optional(
      Type.String({
        description: 'Why the check warns or fails, or other detail; absent when nothing to say',
      }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'One check; snapshot:games also carries dataVersion, sides, lists, loadMs, bytes and ageSeconds of the snapshot served; responseCache:bytes carries hits, misses, entries, maxBytes and the dataVersion of the answers cached; thread:requests carries restarts when the thread was started again after it died',
  },
);

export const HealthResponse = Type.Object(
  {
    status: StatusSchema(
      'Overall status, the worst of the checks, except that a store that does not answer counts as warn while a snapshot answers (degraded: statistics still answer; docs/operations.md#store-outages): pass and warn answer 200, fail answers 503',
    ),
    version: Type.String({ description: 'API version (semver)' }),
    serviceId: Type.String({ description: 'Service id: "muster"' }),
    description: Type.String({ description: 'What the service is' }),
    notes: Type.Array(Type.String({ description: 'A note' }), {
      description: 'Notes for operators, e.g. that the store holds generated demo data',
    }),
    checks: Type.Record(
      Type.String(),
      Type.Array(Check, { description: 'The checks of this component and measurement' }),
      {
        description:
          'Checks keyed "component:measurement": store:responseTime (warn above 500 ms, fail when unreachable or slower than 2 s), store:read (only when the store\'s reads failed: fail), store:dataVersion, import:last (warn when it failed or was interrupted), redis:responseTime (when MUSTER_REDIS_URL is set: warn above 500 ms or when unreachable), snapshot:games (warn while not loaded or behind the store), responseCache:bytes (this process\'s response cache; always pass), thread:requests (when several threads serve: one entry per thread, the requests it answered; warn while one is not serving), engine:queue (computations waiting for an engine thread: warn, "degraded", while a computation has waited over 1 s or one was refused or abandoned in the last 10 s), process:draining (only while shutting down: fail, so health answers 503)',
      },
    ),
  },
  { description: 'Health of the service (draft-inadarei-api-health-check)' },
);

/** Times a ping, bounded like every probe of the store (docs/operations.md#store-outages). */
async function timed(ping: () => Promise<void>): Promise<{ ms: number; error?: string }> {
  const started = performance.now();
  try {
    await withinTime(ping(), PROBE_TIMEOUT_MS, 'ping');
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error: (error as Error).message };
  }
}

function worst(statuses: Status[]): Status {
  if (statuses.includes('fail')) return 'fail';
  if (statuses.includes('warn')) return 'warn';
  return 'pass';
}

/** The redis:responseTime check: without Redis the rate limit is off, not the service. */
function redisCheck(
  ping: { ms: number; error?: string },
  now: Date,
): Record<string, unknown> & { status: Status } {
  // A warning, never a failure: requests are still answered, only not rate limited.
  const status: Status = ping.error || ping.ms > 500 ? 'warn' : 'pass';
  return {
    componentId: 'rate-limit',
    componentType: 'datastore',
    observedValue: Math.round(ping.ms * 100) / 100,
    observedUnit: 'ms',
    status,
    time: now.toISOString(),
    ...(ping.error
      ? { output: `Redis unreachable (requests are not rate limited): ${ping.error}` }
      : {}),
  };
}

/**
 * The most of an import's summary health shows (docs/operations.md#import-limits): health is polled
 * often, so it stays small however an import went; `muster rejects` has the rest.
 */
export const HEALTH_IMPORT_SUMMARY_CHARS = 1_000;

/** The import:last check: the newest finished import; a failed or interrupted one warns. */
function importCheck(last: LastImport | undefined): Record<string, unknown> & { status: Status } {
  if (last === undefined) {
    return {
      componentType: 'component',
      observedValue: null,
      status: 'pass',
      output: 'no import yet',
    };
  }
  return {
    componentType: 'component',
    observedValue: last.finished_at,
    status: ['failed', 'interrupted'].includes(last.status) ? 'warn' : 'pass',
    time: last.finished_at ?? undefined,
    output: `${last.format} import ${last.status}: ${clip(last.summary ?? '', Number(last.id))}`,
  };
}

/** A summary cut to the health bound (one written before summaries were bounded can be long). */
function clip(summary: string, importId: number): string {
  if (summary.length <= HEALTH_IMPORT_SUMMARY_CHARS) return summary;
  return `${summary.slice(0, HEALTH_IMPORT_SUMMARY_CHARS)}… (cut; muster rejects --import ${importId} lists every reject)`;
}

/**
 * The thread:requests check: one entry per server thread with the requests it has answered,
 * warning for a thread that is not serving (starting again after it died, or closing).
 */
function threadChecks(
  roster: NonNullable<AppContext['roster']>,
  statuses: Status[],
): Array<Record<string, unknown>> {
  return roster.list().map(({ thread, state, answered, starts }) => {
    const status: Status = state === 'serving' ? 'pass' : 'warn';
    statuses.push(status);
    return {
      componentId: `thread-${thread}`,
      componentType: 'component',
      observedValue: answered,
      status,
      ...(state === 'serving' ? {} : { output: state }),
      ...(starts > 1 ? { restarts: starts - 1 } : {}),
    };
  });
}

/** The snapshot:games check: warns while nothing is loaded or the store is ahead. */
function snapshotCheck(
  snapshot: SnapshotStatus | null,
  dataVersion: number,
  now: Date,
): Record<string, unknown> & { status: Status } {
  const status: Status =
    snapshot === null ? 'warn' : snapshot.dataVersion < dataVersion ? 'warn' : 'pass';
  return {
    componentType: 'component',
    observedValue: snapshot?.games ?? null,
    status,
    ...(snapshot === null
      ? { output: 'snapshot not loaded yet' }
      : {
          time: snapshot.loadedAt,
          dataVersion: snapshot.dataVersion,
          sides: snapshot.sides,
          lists: snapshot.lists,
          loadMs: snapshot.loadMs,
          bytes: snapshot.bytes,
          ageSeconds: (now.getTime() - Date.parse(snapshot.loadedAt)) / 1000,
          ...(snapshot.dataVersion < dataVersion
            ? { output: `reloading: store is at version ${dataVersion}` }
            : {}),
        }),
  };
}

interface CheckSet {
  checks: Record<string, Array<Record<string, unknown>>>;
  statuses: Status[];
  notes: string[];
}

/**
 * How a failing store check counts in the overall status: while a snapshot answers, the service
 * is degraded (warn, 200), not down, so that a store outage does not take every instance out of
 * its load balancer at once (docs/operations.md#store-outages).
 */
function storeFailure(ctx: AppContext): Status {
  return ctx.snapshots?.current() != null ? 'warn' : 'fail';
}

/** The store's data version, demo flag, last import and the snapshot's lag behind it. */
async function storeChecks(ctx: AppContext, now: Date, into: CheckSet): Promise<void> {
  const { checks, statuses, notes } = into;
  try {
    const { dataVersion, demo, lastImport } = await ctx.store.probe(readServiceState);
    checks['store:dataVersion'] = [
      { componentType: 'datastore', observedValue: dataVersion, status: 'pass' },
    ];
    if (demo !== null) {
      notes.push(`The store holds generated DEMO data (${demo}), not real tournament results.`);
    }
    checks['import:last'] = [importCheck(lastImport)];
    statuses.push(checks['import:last'][0].status as Status);
    if (ctx.snapshots !== undefined) {
      const check = snapshotCheck(ctx.snapshots.status(), dataVersion, now);
      statuses.push(check.status);
      checks['snapshot:games'] = [check];
    }
  } catch (error) {
    statuses.push(storeFailure(ctx));
    checks['store:read'] = [
      { componentType: 'datastore', status: 'fail', output: (error as Error).message },
    ];
  }
}

/** The snapshot:games check while the store cannot say how far behind it the snapshot is. */
function snapshotWithoutStore(snapshot: SnapshotStatus | null): Record<string, unknown> & {
  status: Status;
} {
  return {
    componentType: 'component',
    observedValue: snapshot?.games ?? null,
    status: snapshot === null ? 'fail' : 'warn',
    ...(snapshot === null
      ? { output: 'snapshot not loaded yet, and the store is unreachable' }
      : {
          time: snapshot.loadedAt,
          dataVersion: snapshot.dataVersion,
          output: `answering from the snapshot of data version ${snapshot.dataVersion}; the store is unreachable, so newer data cannot be loaded`,
        }),
  };
}

/** The response cache's size and outcomes since start. */
function responseCacheCheck(cache: ReturnType<ResponseCache['stats']>): Record<string, unknown> {
  return {
    componentType: 'component',
    observedValue: cache.bytes,
    observedUnit: 'bytes',
    status: 'pass',
    hits: cache.hits,
    misses: cache.misses,
    entries: cache.entries,
    maxBytes: cache.maxBytes,
    dataVersion: cache.dataVersion,
  };
}

/** A wait in the engine's queue longer than this means the engine threads do not keep up. */
const DEGRADED_WAIT_MS = 1000;
/** For this long after a refusal (503 `busy`) or an abandoned computation, health stays degraded. */
const DEGRADED_HOLD_MS = 10_000;

/**
 * The engine:queue check (docs/operations.md#limits): warns ("degraded") while the engine
 * threads cannot keep up: a task has waited over a second, or one was refused or abandoned
 * (its requests answered 503) within the last ten seconds.
 */
function engineCheck(
  pressure: EnginePressure,
  now: Date,
): Record<string, unknown> & { status: Status } {
  const recent = (at: number | null) => at !== null && now.getTime() - at < DEGRADED_HOLD_MS;
  const reasons: string[] = [];
  if (pressure.oldestWaitMs > DEGRADED_WAIT_MS) {
    reasons.push(`a computation has waited ${Math.round(pressure.oldestWaitMs)} ms for a thread`);
  }
  if (recent(pressure.lastRefusedAt)) reasons.push('computations were refused (503 busy)');
  if (recent(pressure.lastAbandonedAt)) {
    reasons.push('computations were abandoned at their deadline or by their clients');
  }
  return {
    componentType: 'component',
    observedValue: pressure.waiting,
    observedUnit: 'tasks',
    status: reasons.length > 0 ? 'warn' : 'pass',
    time: now.toISOString(),
    running: pressure.running,
    oldestWaitMs: Math.round(pressure.oldestWaitMs),
    ...(reasons.length > 0 ? { output: `degraded: ${reasons.join('; ')}` } : {}),
  };
}

/** Registers GET /api/health. */
export function registerHealthRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Status of the service',
        description:
          'Health of the store, the in-memory snapshot and the last import, as application/health+json.',
        tags: ['service'],
        produces: [HEALTH_CONTENT_TYPE],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const now = new Date();
      const checks: Record<string, Array<Record<string, unknown>>> = {};
      const notes: string[] = [];
      const statuses: Status[] = [];

      const ping = await timed(() => ctx.store.ping());
      const storeStatus: Status = ping.error ? 'fail' : ping.ms > 500 ? 'warn' : 'pass';
      statuses.push(storeStatus === 'fail' ? storeFailure(ctx) : storeStatus);
      checks['store:responseTime'] = [
        {
          componentId: ctx.store.dialect,
          componentType: 'datastore',
          observedValue: Math.round(ping.ms * 100) / 100,
          observedUnit: 'ms',
          status: storeStatus,
          time: now.toISOString(),
          ...(ping.error ? { output: `store unreachable: ${ping.error}` } : {}),
        },
      ];

      if (ctx.redis !== undefined) {
        const redis = ctx.redis;
        const redisPing = await timed(async () => {
          await redis.ping();
        });
        const check = redisCheck(redisPing, now);
        statuses.push(check.status);
        checks['redis:responseTime'] = [check];
      }

      if (!ping.error) await storeChecks(ctx, now, { checks, statuses, notes });
      else if (ctx.snapshots !== undefined) {
        const check = snapshotWithoutStore(ctx.snapshots.status());
        statuses.push(check.status);
        checks['snapshot:games'] = [check];
      }

      if (ctx.responseCache !== undefined) {
        checks['responseCache:bytes'] = [responseCacheCheck(ctx.responseCache.stats())];
      }

      if (ctx.roster !== undefined) checks['thread:requests'] = threadChecks(ctx.roster, statuses);

      if (ctx.engineThread !== undefined) {
        const check = engineCheck(ctx.engineThread.pressure(), now);
        statuses.push(check.status);
        checks['engine:queue'] = [check];
      }

      // While shutting down, a load balancer must stop sending here (docs/operations.md#shutdown).
      if (isDraining(app)) {
        statuses.push('fail');
        checks['process:draining'] = [
          {
            componentType: 'component',
            status: 'fail',
            time: now.toISOString(),
            output:
              'shutting down: requests already on their way are answered with Connection: close; send new ones elsewhere',
          },
        ];
      }

      const status = worst(statuses);
      return reply
        .code(status === 'fail' ? 503 : 200)
        .header('cache-control', 'no-store')
        .type(HEALTH_CONTENT_TYPE)
        .send({
          status,
          version: API_VERSION,
          serviceId: 'muster',
          description: 'Muster tabletop wargame statistics',
          notes,
          checks,
        });
    },
  );
}
