/**
 * Idle keep-alive connections against a benchmark server (docs/operations.md#connections):
 * `total` connections, each after one GET /api/health, held open from two child processes (a
 * process here may hold 20,000 descriptors, the server as many) over many loopback addresses,
 * fewer than the per-client bound each, so both the per-client and the total bound are met;
 * meanwhile health on a new connection from 127.0.0.1 every 100 ms.
 */
import { spawn } from 'node:child_process';

export interface IdleSocketsResult {
  /** Connections the clients asked for, opened with a 200 answer, and failed or cut. */
  asked: number;
  opened: number;
  failed: number;
  /** Of those opened, how many the server had closed when the clients stopped. */
  closedByServer: number;
  /** Health on a new connection while they were held: answers 200, failures, slowest. */
  healthProbes: number;
  healthFailures: number;
  healthMaxMs: number;
}

/** One client: opens `count` connections from 127.0.0.`first`…, each over `perAddress`. */
const CLIENT = `
const net = require('node:net');
const [port, count, first, perAddress] = process.argv.slice(1).map(Number);
let opened = 0, failed = 0, closed = 0, done = 0;
const open = (i) => new Promise((resolve) => {
  const localAddress = '127.0.' + Math.floor((first + Math.floor(i / perAddress)) / 250) + '.' + (2 + ((first + Math.floor(i / perAddress)) % 250));
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  let text = '', answered = false;
  socket.setEncoding('utf8');
  socket.on('data', (d) => { text += d; if (!answered && text.includes('\\r\\n\\r\\n')) { answered = true; if (text.startsWith('HTTP/1.1 200')) opened++; else failed++; resolve(); } });
  socket.on('error', () => {});
  socket.on('close', () => { if (answered) closed++; else { failed++; resolve(); } });
  socket.write('GET /api/health HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n');
});
(async () => {
  for (let i = 0; i < count; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, k) => open(i + k)));
  }
  process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
  process.stdin.once('data', () => {
    process.stdout.write(JSON.stringify({ opened, failed, closed }) + '\\n');
    process.exit(0);
  });
})();
`;

/** Holds `total` idle connections to `url` and probes health beside them for `probeMs`. */
export async function measureIdleSockets(
  url: string,
  total: number,
  perAddress = 200,
  probeMs = 5000,
): Promise<IdleSocketsResult> {
  const port = Number(new URL(url).port);
  const half = Math.ceil(total / 2);
  const clients = [0, 1].map((c) => {
    const count = c === 0 ? half : total - half;
    const first = c * Math.ceil(half / perAddress);
    const child = spawn(
      process.execPath,
      ['-e', CLIENT, String(port), String(count), String(first), String(perAddress)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines: string[] = [];
    let buffer = '';
    const waiters: Array<() => void> = [];
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        waiters.shift()?.();
      }
    });
    const next = () =>
      new Promise<string>((resolve) => {
        if (lines.length > 0) resolve(lines.shift()!);
        else waiters.push(() => resolve(lines.shift()!));
      });
    return { child, next };
  });
  await Promise.all(clients.map((c) => c.next()));
  let probes = 0;
  let failures = 0;
  let maxMs = 0;
  const until = performance.now() + probeMs;
  while (performance.now() < until) {
    const t = performance.now();
    try {
      // A new connection each time, as a load balancer's probe.
      const response = await fetch(`${url}/api/health`, { headers: { connection: 'close' } });
      await response.arrayBuffer();
      if (response.status !== 200) failures++;
    } catch {
      failures++;
    }
    probes++;
    maxMs = Math.max(maxMs, performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  const counts = await Promise.all(
    clients.map(async (c) => {
      c.child.stdin.write('report\n');
      return JSON.parse(await c.next()) as { opened: number; failed: number; closed: number };
    }),
  );
  return {
    asked: total,
    opened: counts.reduce((n, c) => n + c.opened, 0),
    failed: counts.reduce((n, c) => n + c.failed, 0),
    closedByServer: counts.reduce((n, c) => n + c.closed, 0),
    healthProbes: probes,
    healthFailures: failures,
    healthMaxMs: maxMs,
  };
}
