/**
 * The shape every statistics route shares (docs/http-api.md#the-envelope): validate the body
 * against its
 * schema, take the snapshot being served, normalise the common filter, run the engine, wrap the
 * result in {data, meta}. A route file supplies only its schemas and how to call its engine.
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
import type { EngineResult } from '../../engine/common.ts';
import { runEngineTask } from '../../engine/engine-tasks.ts';
import type {
  EngineTaskArgs,
  EngineTaskName,
  EngineTaskResult,
} from '../../engine/engine-tasks.ts';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import type { CommonFilter, CommonFilterInput } from '../../engine/filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { AppContext } from '../app-context.ts';
import { noteCacheOutcome } from '../metrics.ts';
import { appendVary, negotiateEncoding } from '../plugins/compression.ts';
import { problemResponse } from '../plugins/problem-responses.ts';
import type { CachedBody } from '../response-cache.ts';
import { requestSignal } from '../request-signal.ts';
import { envelope, requireSnapshot } from '../schemas/envelope.ts';

/** The body of a request validated against `B`, as the TypeBox type provider types it. */
export type BodyOf<B extends TSchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  FastifySchema & { body: B },
  TypeBoxTypeProvider
>['body'];

export interface StatsRoute<B extends TSchema, D, F> {
  path: string;
  summary: string;
  description: string;
  body: B;
  response: TSchema;
  /** When the route answers 404 (an id the data does not hold), documented as its 404. */
  notFound?: string;
  /** The common filter's fields of a body (the body itself: its schema spreads them in). */
  filterOf: (body: BodyOf<B>) => CommonFilterInput;
  /**
   * The engine call, through runEngine: on an engine thread, it answers a promise. `signal`
   * aborts when nobody waits for the answer any more (request-signal.ts).
   */
  compute: (
    snapshot: Snapshot,
    filter: CommonFilter,
    body: BodyOf<B>,
    signal: AbortSignal | undefined,
  ) => EngineResult<D, F> | Promise<EngineResult<D, F>>;
}

/** Registers one statistics POST route (docs/http-api.md#requests). */
export function registerStatsRoute<B extends TSchema, D, F>(
  app: FastifyInstance,
  ctx: AppContext,
  route: StatsRoute<B, D, F>,
): void {
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
      // The route's response schema serialiser (fast-json-stringify), as Fastify would use.
      const serialise = (result: EngineResult<D, F>) =>
        String(reply.serialize(envelope(snapshot, result)));
      const answer = (signal: AbortSignal | undefined) => {
        const filter = normaliseCommonFilter(snapshot, route.filterOf(body));
        const result = route.compute(snapshot, filter, body, signal);
        return result instanceof Promise ? result.then(serialise) : serialise(result);
      };
      return sendCached(ctx, reply, route.path, body, snapshot, answer);
    },
  );
}

/**
 * Runs the engine's `task` for a request: on the app's engine thread(s) when it has them
 * (docs/architecture.md#engine-thread), else here. The arguments and the answer are plain
 * data, so either way the answer is the same. When `signal` aborts, a task that has not
 * finished is dropped or cancelled.
 */
export function runEngine<K extends EngineTaskName>(
  ctx: AppContext,
  signal: AbortSignal | undefined,
  task: K,
  snapshot: Snapshot,
  ...args: EngineTaskArgs<K>
): EngineTaskResult<K> | Promise<EngineTaskResult<K>> {
  if (ctx.engineThread === undefined) return runEngineTask(task, snapshot, ...args);
  return ctx.engineThread.runAbortable(signal, task, snapshot, ...args);
}

/**
 * Sends the serialised answer to `body` on `path` from the response cache, computing it with
 * `answer` on a miss (docs/operations.md#response-cache), in the content coding the client
 * prefers (docs/http-api.md#compression). A hit or an uncached answer is sent at once and the
 * reply returned; a miss that joins a computation in flight resolves when sent.
 */
export function sendCached(
  ctx: AppContext,
  reply: FastifyReply,
  path: string,
  body: unknown,
  snapshot: Snapshot,
  answer: (signal: AbortSignal | undefined) => string | Promise<string>,
): FastifyReply | Promise<FastifyReply> {
  const cache = ctx.responseCache;
  const on = cache !== undefined && cache.maxBytes > 0;
  if (!on) noteCacheOutcome(reply.request, 'off');
  if (cache === undefined) {
    // A serialised answer is a string built piece by piece; sent as a string it would be walked
    // twice (Content-Length, then the socket write), so it is encoded once here.
    const send = (text: string) =>
      reply.type('application/json; charset=utf-8').send(Buffer.from(text));
    const text = answer(requestSignal(reply));
    return typeof text === 'string' ? send(text) : text.then(send);
  }
  // The cache keeps each coding once; the compression plugin leaves an encoded answer alone.
  const send = (cached: CachedBody) => {
    appendVary(reply, 'Accept-Encoding');
    if (cached.encoding !== null) reply.header('content-encoding', cached.encoding);
    return reply.type('application/json; charset=utf-8').send(cached.bytes);
  };
  const encoding = negotiateEncoding(reply.request.headers['accept-encoding']);
  const payload = cache.get(path, body, snapshot, answer, encoding, () => requestSignal(reply));
  // A hit is answered synchronously; a promise is a computation, this one's or one in flight.
  if (on) noteCacheOutcome(reply.request, payload instanceof Promise ? 'miss' : 'hit');
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
