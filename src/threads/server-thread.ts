/**
 * What `muster serve` runs on each server thread (docs/architecture.md#threads), the thread's own
 * module: one whole Fastify server over the service's one snapshot, listening on the service
 * port beside its sibling threads (`reusePort`: the kernel spreads new connections among them)
 * and answering its connections end to end, engine call included (engine-pool-thread.ts: a task
 * with a warm key goes to the main thread's one engine pool). The main thread posts it each
 * snapshot and says when to listen and when to close (server-host.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/app.ts';
import { closeGracefully } from '../http/graceful-close.ts';
import { ServiceMetrics } from '../http/metrics.ts';
import { EnginePoolThread } from './engine-pool-thread.ts';
import type {
  FromServerThread,
  ServerThreadData,
  ToServerThread,
} from './server-thread-messages.ts';
import { SharedConnectionCounts, SharedRateCounts, ThreadRoster } from './shared-limits.ts';
import { SharedBodies } from './shared-response-cache.ts';
import { ThreadSnapshots } from './thread-snapshots.ts';
import { ResponseCache } from '../http/response-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { openStore } from '../store/store.ts';
import type { Store } from '../store/store.ts';

const data = workerData as ServerThreadData;
const snapshots = new ThreadSnapshots();
const roster = new ThreadRoster(data.limits, data.threads);
// This thread's requests; the process's own metrics are the main thread's.
const metrics = new ServiceMetrics({ process: false });
const tell = (message: FromServerThread) => parentPort!.postMessage(message);
const tokenOf = (snapshot: Snapshot) => snapshots.tokenOf(snapshot);
const engine = new EnginePoolThread(data.pool, tokenOf, data.pressure);
// One store of answers for every thread: an answer computed here is a hit on the others.
const responseCache =
  data.cache === null
    ? undefined
    : new ResponseCache(
        data.config.responseCacheBytes,
        undefined,
        new SharedBodies(data.cache, data.index, (s) => tokenOf(s as Snapshot)),
      );

let built: Promise<{ app: FastifyInstance; store: Store }> | null = null;

async function listen(port: number): Promise<void> {
  const { app } = await built!;
  const { host } = data.config;
  try {
    // Fastify passes the option on to net.Server's listen (Node 22.12 and later).
    const address = await app.listen({ host, port, reusePort: true } as { host: string });
    const bound = app.server.address();
    roster.mark(data.index, 'serving');
    tell({ type: 'listening', address, port: typeof bound === 'object' ? bound!.port : port });
  } catch (error) {
    const e = error as { code?: string; message?: string };
    tell({ type: 'refused', code: e.code ?? 'unknown', message: e.message ?? String(error) });
  }
}

async function close(graceMs: number): Promise<void> {
  const { app, store } = await built!;
  roster.mark(data.index, 'closing');
  await closeGracefully(app, graceMs);
  await engine.close();
  await store.close();
  tell({ type: 'closed' });
  parentPort!.close();
}

parentPort!.on('message', (message: ToServerThread) => {
  if (message.type === 'snapshot') {
    snapshots.keep(message.token, message.snapshot, message.caches);
    tell({ type: 'attached', token: message.token });
  } else if (message.type === 'serve') snapshots.serve(message.token, message.status);
  else if (message.type === 'listen') void listen(message.port);
  else if (message.type === 'metrics') {
    void metrics.data().then((d) => tell({ type: 'metrics', id: message.id, data: d }));
  } else void close(message.graceMs);
});

built = (async () => {
  const { config } = data;
  const store = await openStore(config.databaseUrl);
  const app = await buildApp({
    config,
    store,
    snapshots,
    engineThread: engine,
    responseCache,
    metrics,
    roster,
    rateCounts: new SharedRateCounts(data.limits, data.index),
    connectionCounts: new SharedConnectionCounts(data.limits, data.threads, data.index),
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    roster.answered(data.index);
    done();
  });
  await app.ready();
  return { app, store };
})();
await built;
tell({ type: 'built' });
