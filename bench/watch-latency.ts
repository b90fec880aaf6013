/**
 * Watch-to-served latency (docs/operations.md#watching-a-folder): `muster serve` over a store
 * (the demo's by default) polling its data version every MUSTER_SNAPSHOT_POLL_MS, `muster import
 * --watch` on a folder, and a GET /api/live stream: a CSV file in the folder is rewritten with
 * one more game, and the time until the stream names its event is taken, five times.
 * Run: MUSTER_DATABASE_URL=demo.db node bench/watch-latency.ts [pollMs]
 */
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', 'bin', 'muster.js');
const pollMs = process.argv[2] ?? '200';
const folder = mkdtempSync(join(tmpdir(), 'muster-watch-bench-'));
const HEADER =
  'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score';
const rows = (n: number) =>
  [
    HEADER,
    ...Array.from(
      { length: n },
      (_, i) => `watch-gt,Watch GT,2026-11-28,${i + 1},wa,Orcs,${10 + i},wb,Elves,5`,
    ),
  ].join('\n');
writeFileSync(join(folder, 'results.csv'), rows(1));
const env = {
  ...process.env,
  MUSTER_PORT: '0',
  MUSTER_LOG_LEVEL: 'warn',
  MUSTER_SNAPSHOT_POLL_MS: pollMs,
};
const serve = spawn(process.execPath, [BIN, 'serve'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((done) => {
  let out = '';
  serve.stdout.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) done(m[1]);
  });
});
const watcher = spawn(
  process.execPath,
  [BIN, 'import', '--watch', '--format', 'csv', '--system', 'watch-bench', folder],
  {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
await new Promise<void>((done) => {
  let out = '';
  watcher.stdout.on('data', (d) => {
    out += d;
    if (out.includes('watching')) done();
  });
});
let waiting: ((at: number) => void) | null = null;
get(`${url}/api/live`, { agent: false }, (res) => {
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    if (chunk.includes('event: change') && chunk.includes('watch-gt')) waiting?.(performance.now());
  });
});
await new Promise((r) => setTimeout(r, 3000));
const figures: number[] = [];
for (let k = 2; k <= 6; k++) {
  const seen = new Promise<number>((done) => (waiting = done));
  const t0 = performance.now();
  writeFileSync(join(folder, 'results.csv'), rows(k));
  const ms = (await seen) - t0;
  figures.push(ms);
  console.log(`change ${k - 1}: written to served and signalled in ${ms.toFixed(0)} ms`);
  await new Promise((r) => setTimeout(r, 1000));
}
console.log(`poll ${pollMs} ms: median ${figures.sort((a, b) => a - b)[2].toFixed(0)} ms`);
watcher.kill('SIGTERM');
serve.kill('SIGTERM');
