/**
 * A request's abort signal (docs/operations.md#limits): aborted when the request's deadline
 * passes (request-timeout.ts) or its client goes away before the answer is sent, so that work
 * done only for it is dropped or cancelled (engine-pool.ts, response-cache.ts). Made on first
 * use: a cached answer never asks for one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../errors/problem.ts';

const controllers = new WeakMap<FastifyRequest, AbortController>();

/** The signal of `reply`'s request, made on first use (docs/operations.md#limits). */
export function requestSignal(reply: FastifyReply): AbortSignal {
  const request = reply.request;
  let controller = controllers.get(request);
  if (controller === undefined) {
    const made = new AbortController();
    controller = made;
    controllers.set(request, made);
    const response = reply.raw;
    // 'close' also follows a finished answer; only one that never finished was abandoned.
    response.once('close', () => {
      if (!response.writableFinished) {
        made.abort(
          new ProblemError('timeout', 'the client closed the connection before the answer'),
        );
      }
    });
  }
  return controller.signal;
}

/** Aborts `request`'s signal, if it has one, with `reason` (docs/operations.md#limits). */
export function abortRequest(request: FastifyRequest, reason: unknown): void {
  controllers.get(request)?.abort(reason);
}
