/**
 * One log line per request, written when its answer has gone (docs/operations.md#logs): its
 * `reqId`, method, URL, status and response time. Fastify's own request logging writes two
 * lines per request (one on arrival, one on completion, each through pino's request or reply
 * serialiser), which cost the serving thread about as much as the rest of an uncached
 * statistics answer's HTTP work (docs/architecture.md#where-an-answers-cpu-goes). Errors are
 * logged as Fastify logs them.
 */
import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Fastify's log controller with one `request completed` line per request and none on arrival. */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply);
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}
