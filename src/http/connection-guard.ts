/**
 * Bounds on open connections (docs/operations.md#connections). Each connection holds a file
 * descriptor, and a process out of them refuses every new connection, health included; idle
 * keep-alive connections cost a client nothing to hold, so they are what runs short first. So:
 * - at most MUSTER_MAX_CONNECTIONS in all and MUSTER_MAX_CONNECTIONS_PER_CLIENT from one
 *   address (trusted proxies aside). A connection past either bound makes room by closing the
 *   oldest idle connection in that bound (no request in progress); only when every connection
 *   there is busy is the new one refused. An idle socket can never keep a request out;
 * - the headers deadline (MUSTER_HEADERS_TIMEOUT_MS) of a connection's first request counts
 *   from its accept, not from its first byte, so a silent connection cannot hold a descriptor
 *   for the headers timeout twice over;
 * - reaching a bound is logged as a warning, once per interval with its count.
 */
import { BlockList, isIP } from 'node:net';
import type { Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { answerClientError } from './client-error.ts';
import { ThrottledLog } from './throttled-log.ts';

/**
 * The open connections counted for the whole process when several server threads serve
 * (src/threads/shared-limits.ts keeps them): in all, per client address, and this thread's
 * changes to them.
 */
export interface ConnectionCounts {
  total(): number;
  of(address: string): number;
  add(address: string, by: 1 | -1): void;
  /** GET /api/live streams open from `address`, over every thread (docs/http-api.md#live). */
  streamsOf(address: string): number;
  addStream(address: string, by: 1 | -1): void;
}

export interface ConnectionGuardOptions {
  readonly maxConnections: number;
  /** 0: no per-client bound. */
  readonly maxConnectionsPerClient: number;
  readonly headersTimeoutMs: number;
  /** How often silent connections are checked against the headers deadline. */
  readonly checkIntervalMs: number;
  /** MUSTER_TRUST_PROXY: proxies' connections are many clients', so not bound per address. */
  readonly trustProxy: boolean | string;
  /**
   * The open connections of every server thread, when several serve: the bounds are then the
   * process's, and an idle connection is closed to make room only on the thread that took the
   * new one (it cannot close another thread's).
   */
  readonly shared?: ConnectionCounts;
}

interface Tracked {
  readonly socket: Socket;
  readonly address: string;
  readonly acceptedAt: number;
  requests: number;
  active: number;
}

/** Counts of what the guard did since start (health, tests). */
export interface ConnectionGuardStats {
  open: number;
  evicted: number;
  refused: number;
  silentClosed: number;
}

/** The proxies whose connections are not bound per address: all (true), a list, or none. */
function trustedProxies(trust: boolean | string): ((address: string) => boolean) | null {
  if (trust === true) return () => true;
  if (trust === false) return null;
  const list = new BlockList();
  for (const entry of trust.split(',').map((e) => e.trim())) {
    const [address, bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0) continue;
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    return isIP(plain) !== 0 && list.check(plain, type);
  };
}

export class ConnectionGuard {
  /** Every open connection, oldest first (a Set keeps insertion order). */
  private readonly all = new Set<Tracked>();
  private readonly byAddress = new Map<string, Set<Tracked>>();
  private readonly bySocket = new WeakMap<Socket, Tracked>();
  private readonly trusted: ((address: string) => boolean) | null;
  private readonly warnings: ThrottledLog;
  private readonly sweep: NodeJS.Timeout;
  private readonly counts = { evicted: 0, refused: 0, silentClosed: 0 };

  private readonly options: ConnectionGuardOptions;
  constructor(server: Server, log: FastifyBaseLogger, options: ConnectionGuardOptions) {
    this.options = options;
    this.trusted = trustedProxies(options.trustProxy);
    this.warnings = new ThrottledLog(log);
    server.on('connection', (socket: Socket) => this.accept(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.started(request, response),
    );
    this.sweep = setInterval(() => this.closeSilent(), options.checkIntervalMs);
    this.sweep.unref();
    server.once('close', () => clearInterval(this.sweep));
  }

  stats(): ConnectionGuardStats {
    return { open: this.all.size, ...this.counts };
  }

  private accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const shared = this.options.shared;
    const open = shared?.total() ?? this.all.size;
    if (open >= this.options.maxConnections && !this.evictIdle(this.all)) {
      this.refuse(
        socket,
        'connections-full',
        `all ${this.options.maxConnections} connections are busy`,
      );
      return;
    }
    const perClient = this.options.maxConnectionsPerClient;
    const bounded = perClient > 0 && !(this.trusted?.(address) ?? false);
    let mine = this.byAddress.get(address);
    const theirs = bounded ? (shared?.of(address) ?? mine?.size ?? 0) : 0;
    if (bounded && theirs >= perClient && !this.evictIdle(mine ?? new Set())) {
      this.refuse(
        socket,
        'client-connections-full',
        `all ${perClient} connections of one client are busy`,
        address,
      );
      return;
    }
    const tracked: Tracked = {
      socket,
      address,
      acceptedAt: performance.now(),
      requests: 0,
      active: 0,
    };
    this.all.add(tracked);
    if (mine === undefined) this.byAddress.set(address, (mine = new Set()));
    mine.add(tracked);
    this.bySocket.set(socket, tracked);
    shared?.add(address, 1);
    socket.once('close', () => this.forget(tracked));
  }

  private started(request: IncomingMessage, response: ServerResponse): void {
    const tracked = this.bySocket.get(request.socket);
    if (tracked === undefined) return;
    tracked.requests++;
    tracked.active++;
    response.once('close', () => {
      tracked.active--;
    });
  }

  /** Closes the oldest connection of `among` with no request in progress; false when none is idle. */
  private evictIdle(among: Set<Tracked>): boolean {
    for (const tracked of among) {
      if (tracked.active > 0) continue;
      this.forget(tracked);
      tracked.socket.destroy();
      this.counts.evicted++;
      return true;
    }
    return false;
  }

  private refuse(socket: Socket, kind: string, message: string, address?: string): void {
    this.counts.refused++;
    this.warnings.note(
      kind,
      `connection refused: ${message}`,
      address === undefined ? {} : { address },
    );
    socket.destroy();
  }

  /** Answers 408 and closes connections that sent no whole request head within the headers deadline of their accept. */
  private closeSilent(): void {
    const deadline = performance.now() - this.options.headersTimeoutMs;
    for (const tracked of this.all) {
      // Oldest first: once one is younger than the deadline, all the rest are.
      if (tracked.acceptedAt > deadline) break;
      if (tracked.requests > 0) continue;
      this.forget(tracked);
      this.counts.silentClosed++;
      const timeout = Object.assign(new Error('headers not received in time'), {
        code: 'ERR_HTTP_REQUEST_TIMEOUT',
      });
      answerClientError(timeout, tracked.socket);
      // A client that never reads its 408 must not hold the descriptor either.
      tracked.socket.destroySoon();
    }
  }

  private forget(tracked: Tracked): void {
    if (!this.all.delete(tracked)) return;
    this.options.shared?.add(tracked.address, -1);
    const mine = this.byAddress.get(tracked.address);
    mine?.delete(tracked);
    if (mine?.size === 0) this.byAddress.delete(tracked.address);
  }
}
