/**
 * GET /api/live fan-out (docs/operations.md#live-fan-out): `count` streams held open by a child
 * process (a process here may hold 20,000 descriptors), then one change pushed through the hub
 * several times: the server's memory per stream, the time the hub takes to write one change to
 * every stream, and the time until the last stream has read it.
 * Run: node --expose-gc bench/live-fanout.ts [count]
 */
import { fork } from 'node:child_process';
import { SnapshotManager } from '../src/snapshot/snapshot-manager.ts';
import { loadConfig } from '../src/config/config.ts';
import { buildAppWithEngine } from '../src/threads/app-with-engine.ts';
import { liveHubOf } from '../src/http/routes/live.ts';
import { openMigratedStore } from '../src/store/store.ts';

const CLIENT = `
const http = require('node:http');
const [port, count] = process.argv.slice(1).map(Number);
let opened = 0; let started = 0; const seen = new Map();
// A few hundred connects at a time: ten thousand at once overflow the listen backlog.
const more = () => { while (started < count && started - opened < 200) open(started++); };
const open = () => {
  http.get({ host: '127.0.0.1', port, path: '/api/live', agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      if (chunk.includes('retry:')) { if (++opened === count) process.send({ opened }); more(); }
      const m = /id: (\\d+)\\nevent: change/.exec(chunk);
      if (m) {
        const n = (seen.get(m[1]) ?? 0) + 1;
        seen.set(m[1], n);
        if (n === count) process.send({ id: Number(m[1]), at: performance.timeOrigin + performance.now() });
      }
    });
  }).on('error', (e) => process.send({ error: e.message }));
};
more();
`;

const count = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const config = {
  ...loadConfig({ MUSTER_LOG_LEVEL: 'silent' }),
  rateLimitMax: 1_000_000,
  maxConnectionsPerClient: 0,
  liveStreamsPerClient: 1_000_000,
};
const store = await openMigratedStore('sqlite::memory:');
// The fan-out does not depend on the data: an empty store serves an empty snapshot.
const snapshots = new SnapshotManager(store, { pollMs: 3_600_000 });
await snapshots.start();
const app = await buildAppWithEngine({ config, store, snapshots }, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const hub = liveHubOf(app)!;
gc();
const before = process.memoryUsage();
const child = fork('-e', [CLIENT, String(port), String(count)], { execArgv: [], stdio: 'inherit' });
const messages: Array<Record<string, number | string>> = [];
let waiter: (() => void) | null = null;
child.on('message', (m: Record<string, number | string>) => {
  messages.push(m);
  waiter?.();
});
const next = () =>
  new Promise<Record<string, number | string>>((resolve) => {
    const take = () => {
      const m = messages.shift();
      if (m !== undefined) return resolve(m);
      waiter = take;
    };
    take();
  });
const opening = performance.now();
console.log(await next());
const openMs = performance.now() - opening;
gc();
const after = process.memoryUsage();
const perStream = (k: 'rss' | 'heapUsed') => Math.round((after[k] - before[k]) / count);
console.log(
  `${hub.stats().subscribers} streams open in ${openMs.toFixed(0)} ms; server rss +${((after.rss - before.rss) / 2 ** 20).toFixed(1)} MiB (${perStream('rss')} B/stream), heap +${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(1)} MiB (${perStream('heapUsed')} B/stream)`,
);
for (let k = 1; k <= 5; k++) {
  const id = 1_000_000 + k;
  const t0 = performance.timeOrigin + performance.now();
  hub.publish({ id, since: id - 1, events: ['spring-gt'] });
  const writeMs = performance.timeOrigin + performance.now() - t0;
  const m = await next();
  console.log(
    `change ${k}: hub wrote to ${count} streams in ${writeMs.toFixed(1)} ms; last stream read it ${(Number(m.at) - t0).toFixed(1)} ms after the push`,
  );
  await new Promise((r) => setTimeout(r, 500));
}
child.kill();
await app.close();
await store.close();
