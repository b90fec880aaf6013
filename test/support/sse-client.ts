/** A server-sent events client over one raw HTTP GET, collecting the events it reads. */
import { get } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  headers: IncomingMessage['headers'] = {};
  readonly ended: Promise<void>;
  readonly opened: Promise<void>;
  private readonly request: ClientRequest;
  private buffer = '';
  private waiters: Array<() => void> = [];

  constructor(url: string, headers: Record<string, string> = {}) {
    let opened!: () => void;
    let ended!: () => void;
    this.opened = new Promise((resolve) => (opened = resolve));
    this.ended = new Promise((resolve) => (ended = resolve));
    // A connection of its own, closed with the stream (no agent keeps it alive after a 429).
    const options = { agent: false, headers: { accept: 'text/event-stream', ...headers } };
    this.request = get(url, options, (res) => {
      this.status = res.statusCode ?? 0;
      this.headers = res.headers;
      opened();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => this.read(chunk));
      res.on('close', () => ended());
    });
    this.request.on('error', () => {
      opened();
      ended();
    });
  }

  /** The events of one type read so far. */
  of(type: string): SseEvent[] {
    return this.events.filter((e) => e.event === type);
  }

  /** Resolves once `count` events of `type` have arrived; rejects after `ms`. */
  async waitFor(type: string, count: number, ms = 10_000): Promise<SseEvent[]> {
    const until = Date.now() + ms;
    while (this.of(type).length < count) {
      if (Date.now() > until) throw new Error(`${this.of(type).length} ${type} events of ${count}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.of(type);
  }

  close(): void {
    this.request.destroy();
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { id: null, event: 'message', data: '' };
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments++;
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (name === 'id') event.id = value;
        else if (name === 'event') event.event = value;
        else if (name === 'data') event.data += value;
        else continue;
        fields++;
      }
      if (fields > 0 && (event.data !== '' || event.event !== 'message')) this.events.push(event);
    }
    for (const w of this.waiters.splice(0)) w();
  }
}
