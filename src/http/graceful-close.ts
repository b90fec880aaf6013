/**
 * Graceful shutdown, bounded whatever clients do (docs/operations.md#shutdown):
 *
 * 1. stop accepting: only the listening socket is closed. `http.Server.close()` would also end
 *    idle keep-alive connections at once (a request a client has just written on one would be
 *    lost: a reset) and stop Node's checks of the header and receive timeouts, so that a client
 *    dripping its headers or body could hold the server open for ever;
 * 2. drain for up to graceMs: requests on connections already accepted are answered, each with
 *    `Connection: close` (RFC 9112 §9.6), health answers 503 so a load balancer stops sending,
 *    and the header and receive timeouts keep cutting slow senders;
 * 3. at the end of the grace, idle connections are ended and every socket still open (a
 *    request still dripping in, an answer still being computed) is destroyed; then the app
 *    closes (onClose hooks: engine threads, Redis).
 */
import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';

const draining = new WeakSet<FastifyInstance>();
const drainListeners = new WeakMap<FastifyInstance, Array<() => void>>();
const POLL_MS = 25;

/** True once closeGracefully has begun for this app: health reports it (503). */
export function isDraining(app: FastifyInstance): boolean {
  return draining.has(app);
}

/**
 * Calls `listener` when closeGracefully begins: streams that never end by themselves (GET
 * /api/live) end then, rather than holding the drain for its whole grace.
 */
export function onDrain(app: FastifyInstance, listener: () => void): void {
  drainListeners.set(app, [...(drainListeners.get(app) ?? []), listener]);
}

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
 * Stops accepting, drains for up to graceMs (less once every connection has closed), then
 * destroys what is left and closes the app: shutdown takes at most graceMs plus the app's own
 * onClose hooks, whatever the clients send or hold.
 */
export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  draining.add(app);
  for (const listener of drainListeners.get(app) ?? []) listener();
  const server = app.server;
  if (server.listening) {
    // net.Server's close, not http.Server's (see above): new connections are refused from now.
    Server.prototype.close.call(server);
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (await openConnections(app)) > 0) {
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
  }
  // Idle keep-alive connections end with a FIN; what is still busy after the grace is cut.
  server.closeIdleConnections();
  server.closeAllConnections();
  await app.close();
}
