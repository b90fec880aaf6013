/**
 * The subscribers of GET /api/live on one server thread (docs/http-api.md#live): each snapshot
 * swap becomes one server-sent event naming the events whose games changed (a signal: clients
 * fetch what they show again), a heartbeat keeps idle streams open through proxies, and the
 * last changes are kept so that a reconnecting client's Last-Event-ID is answered with what it
 * missed (WHATWG HTML, "Server-sent events"). Each thread keeps its own hub over its own
 * snapshots, so every thread serves its own subscribers.
 */
import { changedEvents } from '../../engine/events/event-fingerprints.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { ConnectionCounts } from '../connection-guard.ts';

type StreamCounts = Pick<ConnectionCounts, 'streamsOf' | 'addStream'>;

/** One hub's own count of streams per client (one serving thread). */
function localStreamCounts(): StreamCounts {
  const open = new Map<string, number>();
  return {
    streamsOf: (client) => open.get(client) ?? 0,
    addStream(client, by) {
      const n = (open.get(client) ?? 0) + by;
      if (n <= 0) open.delete(client);
      else open.set(client, n);
    },
  };
}

/** One data change: the data version it brought, the one before, and the events it touched. */
export interface LiveChange {
  readonly id: number;
  readonly since: number;
  /** Null: more events than one message names, or a gap the hub cannot tell; fetch them all. */
  readonly events: readonly string[] | null;
}

/** Where a stream's bytes go: a response's socket (or a test's stand-in). */
export interface LiveSink {
  write(chunk: string): boolean;
  readonly writableLength: number;
  /** Ends the stream after what is buffered (shutdown). */
  end(): void;
  /** Cuts the stream at once (a reader that does not read). */
  destroy(): void;
}

export interface LiveHubOptions {
  readonly heartbeatMs: number;
  /** Bytes a stream may hold unsent before it is dropped. */
  readonly bufferBytes: number;
  /** Streams at once per client address. */
  readonly perClient: number;
  /**
   * The streams of every server thread, when several serve: the per-client bound is then the
   * whole service's, whichever thread a stream's connection landed on.
   */
  readonly shared?: StreamCounts;
  /** Changes kept for Last-Event-ID. */
  readonly history?: number;
  /** Most event ids one change names; past it the change names none (events: null). */
  readonly maxNamed?: number;
}

interface Subscriber {
  readonly sink: LiveSink;
  readonly client: string;
}

/** Counts since the hub started (health, metrics, tests). */
export interface LiveStats {
  subscribers: number;
  changes: number;
  dropped: number;
}

const RETRY_MS = 2000;
/** Streams written before the broadcast gives the event loop a turn. */
const SLICE = 500;

function message(change: LiveChange): string {
  const data = JSON.stringify({ dataVersion: change.id, events: change.events });
  return `id: ${change.id}\nevent: change\ndata: ${data}\n\n`;
}

function ready(version: number): string {
  return `id: ${version}\nevent: ready\ndata: {"dataVersion":${version}}\n\n`;
}

export class LiveHub {
  private readonly subscribers = new Set<Subscriber>();
  /** The broadcast in progress, if any: the next starts once it has written to every stream. */
  private sending: Promise<void> = Promise.resolve();
  /** Streams per client: the service's when several threads serve, else this hub's own. */
  private readonly streams: StreamCounts;
  private readonly history: LiveChange[] = [];
  private served: Snapshot | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { changes: 0, dropped: 0 };
  private closed = false;

  private readonly options: LiveHubOptions;
  constructor(options: LiveHubOptions) {
    this.options = options;
    this.streams = options.shared ?? localStreamCounts();
    this.timer = setInterval(() => this.broadcast(': heartbeat\n\n'), options.heartbeatMs);
    this.timer.unref();
  }

  /** The snapshot now served: the first is remembered; each later one is a change. */
  observe(snapshot: Snapshot): void {
    const before = this.served;
    this.served = snapshot;
    // Streams opened before the first snapshot learn its version now.
    if (before === null) this.broadcast(ready(snapshot.dataVersion));
    if (before === null || before === snapshot) return;
    const events = changedEvents(before, snapshot);
    if (events.length === 0 && before.dataVersion === snapshot.dataVersion) return;
    const max = this.options.maxNamed ?? 1000;
    this.publish({
      id: snapshot.dataVersion,
      since: before.dataVersion,
      events: events.length > max ? null : events,
    });
  }

  /** Sends one change to every subscriber and keeps it for Last-Event-ID. */
  publish(change: LiveChange): void {
    this.history.push(change);
    if (this.history.length > (this.options.history ?? 64)) this.history.shift();
    this.counts.changes++;
    this.broadcast(message(change));
  }

  /** Whether `client` may open another stream (its count is taken when it subscribes). */
  admits(client: string): boolean {
    return !this.closed && this.streams.streamsOf(client) < this.options.perClient;
  }

  /**
   * Starts a stream: the reconnection delay, then what a client that last saw `lastEventId`
   * missed, or (a new client) the current data version as the stream's first id. Returns the
   * function that ends the subscription (the response closed).
   */
  subscribe(sink: LiveSink, client: string, lastEventId: number | null): () => void {
    const subscriber = { sink, client };
    this.subscribers.add(subscriber);
    this.streams.addStream(client, 1);
    let head = `retry: ${RETRY_MS}\n\n`;
    const version = this.served?.dataVersion ?? null;
    if (lastEventId === null || version === null) {
      if (version !== null) head += ready(version);
    } else if (lastEventId !== version) {
      head += this.missed(lastEventId, version).map(message).join('');
    }
    this.send(subscriber, head);
    return () => this.remove(subscriber);
  }

  /** The changes after `last`: the kept ones when they reach back to it, else one "fetch all". */
  private missed(last: number, version: number): LiveChange[] {
    const after = this.history.filter((c) => c.id > last);
    if (after.length > 0 && after[0].since <= last && last < version) return after;
    return [{ id: version, since: last, events: null }];
  }

  /** Ends every stream (shutdown): clients see the stream close and may reconnect elsewhere. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const s of [...this.subscribers]) {
      this.remove(s);
      s.sink.end();
    }
  }

  stats(): LiveStats {
    return { subscribers: this.subscribers.size, ...this.counts };
  }

  /**
   * Writes `chunk` to every stream open now, a slice at a time with a turn of the event loop
   * between (at ten thousand streams one pass would hold the loop: docs/operations.md), one
   * broadcast after another so that every stream reads the changes in order.
   */
  private broadcast(chunk: string): void {
    const streams = [...this.subscribers];
    this.sending = this.sending.then(async () => {
      for (let i = 0; i < streams.length; i += SLICE) {
        if (i > 0) await new Promise((done) => setImmediate(done));
        for (const s of streams.slice(i, i + SLICE)) {
          if (this.subscribers.has(s)) this.send(s, chunk);
        }
      }
    });
  }

  /** Writes to one stream; a stream holding more than the buffer allows is dropped, not kept. */
  private send(s: Subscriber, chunk: string): void {
    s.sink.write(chunk);
    if (s.sink.writableLength > this.options.bufferBytes) {
      this.counts.dropped++;
      this.remove(s);
      s.sink.destroy();
    }
  }

  private remove(s: Subscriber): void {
    if (!this.subscribers.delete(s)) return;
    this.streams.addStream(s.client, -1);
  }
}
