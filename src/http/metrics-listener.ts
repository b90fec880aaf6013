/**
 * The operator's listener (docs/operations.md#metrics): `GET /metrics` in the Prometheus text
 * format on MUSTER_METRICS_HOST:MUSTER_METRICS_PORT, apart from the public app, so that scrapes
 * are never rate limited, never subject to the origin list, and the public address never
 * shows them. Anything else on it is a 404.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceMetrics } from './metrics.ts';

export interface MetricsListener {
  /** `http://host:port/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens for scrapes of `metrics` on `host:port` (0: a free port). */
export async function listenForMetrics(
  metrics: ServiceMetrics,
  host: string,
  port: number,
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: Error) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`metrics failed: ${error.message}\n`);
      },
    );
  });
  // Scrapes are short: a stuck one must not hold shutdown.
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
