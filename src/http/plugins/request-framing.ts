/**
 * Checks of the HTTP message that Node would otherwise answer itself, with a bare status and
 * no body (docs/problems.md): an HTTP/1.1 request without Host (RFC 9112 §3.2) and an Expect
 * other than 100-continue (RFC 9110 §10.1.1). Node is told to let both through, and they are
 * refused here, as problems from the catalogue with every header an answer carries.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../errors/problem.ts';

const CONTINUE = /^100-continue$/i;

/** Installs the checks; after the security headers' hook, before the routes' own hooks. */
export function installRequestFraming(app: FastifyInstance): void {
  // Without a 'checkExpectation' listener Node answers a bare 417 itself: hand the request to
  // Fastify instead, which refuses it below.
  app.server.on('checkExpectation', (request, response) =>
    app.server.emit('request', request, response),
  );
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && raw.headers.host === undefined) {
      done(new ProblemError('malformed-request', 'an HTTP/1.1 request needs a Host header'));
      return;
    }
    const expect = raw.headers.expect;
    if (expect !== undefined && !CONTINUE.test(expect.trim())) {
      // The body the client holds back would be read as the next request: close after answering.
      reply.header('connection', 'close');
      done(
        new ProblemError(
          'expectation-failed',
          `Expect: ${expect.slice(0, 100)} is not supported; only 100-continue is`,
        ),
      );
      return;
    }
    done();
  });
}
