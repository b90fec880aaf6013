/**
 * The shape every statistics route shares (docs/http-api.md#the-envelope): validate the body
 * against its schema, take the snapshot being served, normalise the common filter, look the answer
 * up in the response cache, and on a miss have an engine thread compute it, wrap it in {data,
 * meta}, serialise and compress it (docs/architecture.md#engine-thread), then write the bytes. A
 * route file supplies only its schemas and which engine task answers a body, with what.
 */
import type { IncomingMessage } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import type { EngineResult } from '../../engine/engine-result.ts';
import { runEngineTask } from '../../engine/engine-tasks.ts';
import type { EngineTaskArgs, EngineTaskName } from '../../engine/engine-tasks.ts';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import type { CommonFilter, CommonFilterInput } from '../../engine/filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { AppContext } from '../app-context.ts';
import { noteCacheOutcome } from '../metrics.ts';
import type { Encoding } from '../content-coding.ts';
import { AnswerSerialisers, answerBytes } from '../answer-bytes.ts';
import type { AnswerBytes, AnswerFormat, AnswerOrder } from '../answer-bytes.ts';
import type { TaskWaiter } from '../engine-runner.ts';
import { appendVary, negotiateEncoding } from '../plugins/compression.ts';
import { problemResponse } from '../plugins/problem-responses.ts';
import { clientKey } from '../plugins/rate-limit.ts';
import { serialiserSpec } from '../plugins/serializer.ts';
import { uncachedBody } from '../response-cache.ts';
import type { CachedBody, Compute } from '../response-cache.ts';
import { requestSignal } from '../request-signal.ts';
import { requireSnapshot } from '../require-snapshot.ts';

/** The body of a request validated against `B`, as the TypeBox type provider types it. */
export type BodyOf<B extends TSchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  FastifySchema & { body: B },
  TypeBoxTypeProvider
>['body'];

/**
 * One statistics route (docs/architecture.md#adding-a-statistics-route): its path, schemas and
 * documentation, and which statistic answers a body (its engine task, src/engine/statistics.ts)
 * with which arguments. Every route of STATS_ROUTES (index.ts) is registered by
 * registerStatsRoute.
 */
export interface StatsRoute<
  B extends TSchema = TSchema,
  K extends EngineTaskName = EngineTaskName,
> {
  path: string;
  summary: string;
  description: string;
  body: B;
  response: TSchema;
  /** When the route answers 404 (an id the data does not hold), documented as its 404. */
  notFound?: string;
  /** The engine task that answers, run on an engine thread with its answer's bytes. */
  task: K;
  /** The common filter's fields of a body (the body itself: its schema spreads them in). */
  filterOf(body: BodyOf<B>): CommonFilterInput;
  /**
   * True: the route reads no data (the pairing draft of a matrix the request carries), so it
   * takes no common filter and names no system, however many systems the store holds; its
   * `args` is given the filter of the snapshot's first system, which it must not read.
   */
  noData?: true;
  /** The task's arguments after the snapshot for a body and its normalised filter. */
  args(snapshot: Snapshot, filter: CommonFilter, body: BodyOf<B>): EngineTaskArgs<K>;
  /**
   * False: the answer is never kept in the response cache, as a body the client typed (a
   * captain's pairing matrix) is theirs alone (docs/team-pairing.md#privacy).
   */
  cache?: false;
}

/** A statistics route of any task, told apart by its `task` (so `args` is typed by it). */
type StatsRouteOfSomeTask<B extends TSchema> = {
  [K in EngineTaskName]: StatsRoute<B, K>;
}[EngineTaskName];

/** Declares a statistics route, its body's type and its task's arguments checked together. */
export function statsRoute<B extends TSchema>(route: StatsRouteOfSomeTask<B>): StatsRoute<B> {
  return route as StatsRoute<B>;
}

/** Registers one statistics POST route (docs/http-api.md#requests). */
export function registerStatsRoute(app: FastifyInstance, ctx: AppContext, route: StatsRoute): void {
  // How the engine threads write this route's answers: the serialiser Fastify compiles for
  // its 200 response, as a spec they compile themselves, made on the first request (once every
  // shared schema is registered).
  let format: AnswerFormat | null = null;
  const formatOf = () =>
    (format ??= {
      route: route.path,
      serialiser: serialiserSpec(route.response, app.getSchemas(), undefined),
    });
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    route.path,
    {
      schema: {
        summary: route.summary,
        description: route.description,
        tags: ['statistics'],
        body: route.body,
        response: {
          200: route.response,
          ...(route.notFound === undefined ? {} : { 404: problemResponse(404, route.notFound) }),
        },
      },
    },
    (request, reply) => {
      const body = request.body;
      const snapshot = requireSnapshot(ctx);
      const answer = (
        signal: AbortSignal | undefined,
        encoding: Encoding | null,
        kept: boolean,
      ) => {
        const input = route.noData ? { system: snapshot.systems[0]?.id } : route.filterOf(body);
        const filter = normaliseCommonFilter(snapshot, input);
        const args = route.args(snapshot, filter, body);
        const order = {
          format: formatOf(),
          encodings: encoding === null ? [] : [encoding],
          ...(kept ? {} : { plain: false as const }),
        };
        const waiter = { signal, client: clientKey(request) };
        return runAnswer(ctx, waiter, order, route.task, snapshot, args);
      };
      const keep = route.cache !== false;
      return sendCached(ctx, reply, route.path, body, snapshot, answer, undefined, keep);
    },
  );
}

/** Serialisers compiled on this thread, for answers made here (no engine thread given). */
const hereSerialisers = new AnswerSerialisers();

/**
 * Runs `task` and makes its answer's bytes on this thread, as an engine thread would
 * (docs/architecture.md#engine-thread): where no engine thread is given, and as the reference
 * the tests hold the engine threads to.
 */
export function answerHere(
  order: AnswerOrder,
  task: EngineTaskName,
  snapshot: Snapshot,
  args: readonly unknown[],
): AnswerBytes {
  const run = runEngineTask as (t: EngineTaskName, s: Snapshot, ...a: unknown[]) => unknown;
  const result = run(task, snapshot, ...args) as EngineResult<unknown, unknown>;
  const write = hereSerialisers.of(order.format);
  return answerBytes(snapshot, result, write, order.encodings, order.plain !== false);
}

/**
 * Runs the engine's `task` for a request and makes its answer's bytes: on the app's engine
 * thread(s) when it has them (docs/architecture.md#engine-thread), else here; either way the
 * bytes are the same. When the waiter's signal aborts, a task that has not finished is dropped
 * or cancelled; an expensive task is counted against the waiter's client, the one whose request
 * started it (requests that join it in the response cache add no work and are not counted;
 * docs/operations.md#limits).
 */
export function runAnswer(
  ctx: AppContext,
  waiter: TaskWaiter,
  order: AnswerOrder,
  task: EngineTaskName,
  snapshot: Snapshot,
  args: readonly unknown[],
): AnswerBytes | Promise<AnswerBytes> {
  if (ctx.engineThread === undefined) return answerHere(order, task, snapshot, args);
  const run = ctx.engineThread.answer.bind(ctx.engineThread) as (
    w: TaskWaiter,
    o: AnswerOrder,
    t: EngineTaskName,
    snapshot: Snapshot,
    ...a: unknown[]
  ) => Promise<AnswerBytes>;
  return run(waiter, order, task, snapshot, ...args);
}

/**
 * Sends the answer to `body` on `path` from the response cache, computing it with `answer` on
 * a miss (docs/operations.md#response-cache), in the content coding the client prefers
 * (docs/http-api.md#compression). The bytes come made, in that coding, from the engine thread:
 * this thread only writes them. With `keep` false the answer bypasses the cache altogether.
 * A hit or an uncached answer is sent at once and the reply returned; a miss that joins a computation in flight resolves when sent.
 */
export function sendCached(
  ctx: AppContext,
  reply: FastifyReply,
  path: string,
  body: unknown,
  snapshot: Snapshot,
  answer: Compute,
  contentType = 'application/json; charset=utf-8',
  keep = true,
): FastifyReply | Promise<FastifyReply> {
  const cache = keep ? ctx.responseCache : undefined;
  const on = cache !== undefined && cache.maxBytes > 0;
  if (!on) noteCacheOutcome(reply.request, 'off');
  // Sent as made; the compression plugin leaves a body with a Content-Encoding alone.
  const send = (cached: CachedBody) => {
    appendVary(reply, 'Accept-Encoding');
    if (cached.encoding !== null) reply.header('content-encoding', cached.encoding);
    return reply.type(contentType).send(cached.bytes);
  };
  const encoding = negotiateEncoding(reply.request.headers['accept-encoding']);
  const misses = cache?.missCount ?? 0;
  const payload =
    cache === undefined
      ? uncachedBody(answer, encoding, requestSignal(reply))
      : cache.get(path, body, snapshot, answer, encoding, () => requestSignal(reply));
  if (on) noteCacheOutcome(reply.request, cache.missCount > misses ? 'miss' : 'hit');
  return payload instanceof Promise ? payload.then(send) : send(payload);
}

/**
 * The compareTo filter normalised like the request's own, in the request's system, with error
 * pointers under /compareTo; null when none is given (docs/statistics.md#compareto).
 */
export function compareFilter(
  snapshot: Snapshot,
  filter: CommonFilter,
  input: Omit<CommonFilterInput, 'system'> | undefined,
): CommonFilter | null {
  if (input === undefined) return null;
  return normaliseCommonFilter(snapshot, { ...input, system: filter.system }, '/compareTo');
}

/** Ids as applied: the request's list with duplicates removed (order kept). */
export function applied(ids: readonly string[] | undefined): string[] {
  return [...new Set(ids ?? [])];
}

/** The echo of an id list in meta.filter. */
export const AppliedIds = (what: string) =>
  Type.Array(Type.String({ description: `A ${what} id` }), {
    description: `${what[0].toUpperCase()}${what.slice(1)} ids applied, duplicates removed; empty: every ${what}`,
  });
