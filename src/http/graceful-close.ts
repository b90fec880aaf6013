/**
 * Graceful shutdown (docs/operations.md#shutdown). Node's `server.close()` ends idle keep-alive
 * connections at once, so a request a client has just written on one is lost (the client sees
 * a reset). Instead, for a grace period after the signal every answer asks the client to close
 * (`Connection: close`, RFC 9112 §9.6) and requests on open connections are still answered;
 * then the app closes, letting requests in flight finish.
 */
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';

const draining = new WeakSet<FastifyInstance>();
const POLL_MS = 25;

/** Adds `Connection: close` to every answer once closeGracefully has begun (RFC 9112 §9.6). */
export function installGracefulClose(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining.has(app)) reply.header('connection', 'close');
    done(null, payload);
  });
}

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => {
    app.server.getConnections((error, count) => resolve(error ? 0 : count));
  });
}

/**
 * Answers with `Connection: close` for up to graceMs (less once every connection has closed),
 * then closes the app: in-flight requests complete, idle connections end (RFC 9112 §9.6).
 */
export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  draining.add(app);
  const deadline = Date.now() + graceMs;
  while (app.server.listening && Date.now() < deadline && (await openConnections(app)) > 0) {
    await sleep(POLL_MS);
  }
  await app.close();
}
