/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL in the store-outage tests): it
 * can drop every connection and refuse new ones, as a network partition, a failover or a proxy
 * reset would, and come back on the same port.
 */
import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';

export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Connections open through it now. */
  connections(): number;
  /** Resets every open connection and refuses new ones until up(). */
  down(): void;
  /** Accepts and forwards connections again. */
  up(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host, port });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    connections: () => open.size / 2,
    down() {
      refusing = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    up() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
