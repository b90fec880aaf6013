/**
 * A statistics download (docs/http-api.md#downloads): a GET whose query is the common filter and
 * whose answer is text (CSV) an engine thread makes from one statistic, through the same
 * response cache, content coding and engine threads as the statistics routes (stats-route.ts).
 * A HEAD is answered from the query alone: its headers need no computation, so it costs none.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Static, TObject } from 'typebox';
import type { EngineTaskArgs, EngineTaskName } from '../../engine/engine-tasks.ts';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import type { CommonFilter, CommonFilterInput } from '../../engine/filter.ts';
import type { AppContext } from '../app-context.ts';
import { appendVary } from '../plugins/compression.ts';
import { problemResponse } from '../plugins/problem-responses.ts';
import { requireSnapshot } from '../require-snapshot.ts';
import { clientKey } from '../plugins/rate-limit.ts';
import { runAnswer, sendCached } from './stats-route.ts';

export interface StatsDownload<K extends EngineTaskName = EngineTaskName> {
  path: string;
  summary: string;
  description: string;
  /** The query's schema: the common filter's properties (repeat a parameter for a list). */
  query: TObject;
  /** Its media type, e.g. 'text/csv; charset=utf-8', and the file name it is saved under. */
  contentType: string;
  fileName: string;
  /** The engine task that makes the text (its EngineResult's data is the body). */
  task: K;
  /** The task's arguments for the normalised filter and the whole query (paging, say). */
  args(filter: CommonFilter, query: Record<string, unknown>): EngineTaskArgs<K>;
}

type DownloadOfSomeTask = { [K in EngineTaskName]: StatsDownload<K> }[EngineTaskName];

/** Declares a download, its task's arguments checked against the task. */
export function statsDownload(download: DownloadOfSomeTask): StatsDownload {
  return download as StatsDownload;
}

/** Registers one download GET route (docs/http-api.md#downloads). */
export function registerStatsDownload(
  app: FastifyInstance,
  ctx: AppContext,
  download: StatsDownload,
): void {
  const format = { route: download.path, serialiser: null as never, text: true };
  const media = download.contentType.split(';')[0];
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    download.path,
    {
      schema: {
        summary: download.summary,
        description: download.description,
        tags: ['statistics'],
        querystring: download.query,
        produces: [media],
        response: {
          200: {
            description: download.contentType,
            content: { [media]: { schema: Type.String() } },
          },
          400: problemResponse(
            400,
            'A query parameter is invalid (a system or id the data does not hold, a date that is not real, a bound out of range); `errors[]` points at it',
          ),
        },
      },
    },
    (request, reply) => {
      const query = request.query as Static<typeof download.query>;
      const snapshot = requireSnapshot(ctx);
      reply.header('content-disposition', `attachment; filename="${download.fileName}"`);
      if (request.method === 'HEAD') {
        // The filter is checked (a bad one is the GET's 400), nothing is computed; an empty
        // stream leaves the length unsaid rather than claiming 0.
        normaliseCommonFilter(snapshot, query as CommonFilterInput);
        appendVary(reply, 'Accept-Encoding');
        return reply.type(download.contentType).send(Readable.from([]));
      }
      return sendCached(
        ctx,
        reply,
        download.path,
        query,
        snapshot,
        (signal, encoding) => {
          const filter = normaliseCommonFilter(snapshot, query as CommonFilterInput);
          const order = { format, encodings: encoding === null ? [] : [encoding] };
          const args = download.args(filter, query);
          const waiter = { signal, client: clientKey(request) };
          return runAnswer(ctx, waiter, order, download.task, snapshot, args);
        },
        download.contentType,
      );
    },
  );
}
