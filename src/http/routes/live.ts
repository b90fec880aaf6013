/**
 * GET /api/live (docs/http-api.md#live): a server-sent event stream (WHATWG HTML, "Server-sent
 * events") that signals each change of the served data, naming the events whose games changed,
 * with a heartbeat and Last-Event-ID honoured. The stream is written straight to the socket: it
 * never ends by itself, so it is neither compressed nor cached, holds no answer in memory past
 * MUSTER_LIVE_BUFFER_KB for a reader that does not read, and ends when the server drains.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { API_VERSION } from '../../version.ts';
import { ProblemError } from '../../errors/problem.ts';
import type { AppContext } from '../app-context.ts';
import { onDrain } from '../graceful-close.ts';
import { LiveHub } from '../live/live-hub.ts';
import { problemResponse } from '../plugins/problem-responses.ts';

const hubs = new WeakMap<FastifyInstance, LiveHub>();

/** The live hub of an app (tests, metrics); undefined before the route is registered. */
export function liveHubOf(app: FastifyInstance): LiveHub | undefined {
  return hubs.get(app);
}

/** A Last-Event-ID header as a data version; null when absent or not one. */
function lastEventId(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header[0] : header;
  return text !== undefined && /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : null;
}

const DESCRIPTION =
  'A text/event-stream (server-sent events) that signals each change of the served data: an event `change` with `id` the new data version and `data` `{"dataVersion": n, "events": [ids]}` naming the events whose games changed (null when more than 1000 did, or when a reconnecting client missed more than the server kept: fetch everything shown again). It is a signal, not the data: a client fetches what it shows again. A new stream starts with `retry` and an event `ready` carrying the current data version as its id; a reconnecting client sending `Last-Event-ID` gets the changes it missed instead. A comment line (`: heartbeat`) is sent every MUSTER_LIVE_HEARTBEAT_MS. Streams count against the connection limits and at most MUSTER_LIVE_STREAMS_PER_CLIENT are open from one client (429 too-many-streams); a client that does not read is dropped once MUSTER_LIVE_BUFFER_KB is waiting for it; streams end when the server shuts down.';

/** Registers GET /api/live with its hub, fed by the snapshot swaps of this thread. */
export function registerLiveRoute(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const hub = new LiveHub({
    heartbeatMs: config.liveHeartbeatMs,
    bufferBytes: config.liveBufferBytes,
    perClient: config.liveStreamsPerClient,
    shared: ctx.connectionCounts,
  });
  hubs.set(app, hub);
  const first = ctx.snapshots?.current() ?? null;
  if (first !== null) hub.observe(first);
  const stop = ctx.snapshots?.onSwap?.((snapshot) => hub.observe(snapshot));
  onDrain(app, () => hub.close());
  app.addHook('onClose', (_app, done) => {
    stop?.();
    hub.close();
    done();
  });
  app.get(
    '/api/live',
    {
      schema: {
        summary: 'Live changes of the data (server-sent events)',
        description: DESCRIPTION,
        tags: ['events'],
        produces: ['text/event-stream'],
        response: {
          200: {
            description: 'text/event-stream; charset=utf-8',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          429: problemResponse(
            429,
            'too-many-streams: this client holds MUSTER_LIVE_STREAMS_PER_CLIENT streams already (or rate-limited)',
          ),
        },
      },
    },
    (request, reply) => {
      const client = request.ip;
      if (!hub.admits(client)) {
        throw new ProblemError(
          'too-many-streams',
          `at most ${config.liveStreamsPerClient} live streams from one client`,
          { headers: { 'retry-after': '5' } },
        );
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        // A stream ends only with the server or the client: its connection is never reused,
        // and closing it with the stream lets a drain finish at once.
        connection: 'close',
        'api-version': API_VERSION,
      });
      const socket = res.socket;
      socket?.setNoDelay(true);
      const sink = {
        write: (chunk: string) => res.write(chunk),
        get writableLength() {
          return res.writableLength + (socket?.writableLength ?? 0);
        },
        end: () => res.end(),
        destroy: () => res.destroy(),
      };
      const unsubscribe = hub.subscribe(
        sink,
        client,
        lastEventId(request.headers['last-event-id']),
      );
      res.once('close', unsubscribe);
      return reply;
    },
  );
}
