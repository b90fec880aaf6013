/**
 * A handler-level time limit (docs/http-api.md#limits). Fastify's `requestTimeout` only bounds
 * receiving the request on the socket; this bounds the handler too, counting from the start of
 * the request, and answers 503 `timeout` when it is exceeded. The late result is dropped, and
 * the request's signal aborts, so work that nobody else waits for stops (request-signal.ts).
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { ProblemError } from '../../errors/problem.ts';
import { abortRequest } from '../request-signal.ts';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Wraps every route handler registered after this call. */
export function installRequestTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRoute', (route) => {
    // Health bounds its own store ping and must answer its health+json shape, never a timeout
    // problem (its documented 503 is a health document, so a problem there cannot be sent).
    if (route.url === '/api/health') return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function guarded(this: FastifyInstance, request, reply) {
      const result: unknown = handler.call(this, request, reply);
      // Handlers that send by themselves later (e.g. static files) return nothing, and one that
      // has sent its answer already returns the reply: both are left alone.
      if (result === reply || !isThenable(result)) return result;
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            const problem = new ProblemError(
              'timeout',
              `the request took longer than ${timeoutMs} ms; try a narrower filter or retry later`,
              { headers: { 'retry-after': '1' } },
            );
            // Work done only for this request is dropped or cancelled (request-signal.ts).
            abortRequest(request, problem);
            reject(problem);
          },
          Math.max(0, timeoutMs - reply.elapsedTime),
        );
      });
      return Promise.race([result, expired]).finally(() => clearTimeout(timer));
    };
  });
}
