/**
 * Watch-to-served latency (docs/operations.md#watching-a-folder): `muster serve` over a store
 * (the demo's by default) polling its data version every MUSTER_SNAPSHOT_POLL_MS, `muster import
 * --watch` on a folder, and a GET /api/live stream: a CSV file in the folder is rewritten with
 * one more game, and the time until the stream names its event is taken, `changes` times. Each
 * change is broken into its parts from wall-clock timestamps: the watcher's settle and the
 * import (until its report is printed), the service's notice of the new data version (the
 * poll), then the reload's steps as the service logs them (snapshot-manager.ts, load-phases.ts),
 * then the live stream's signal after the swap.
 * Run: MUSTER_DATABASE_URL=demo.db node bench/watch-latency.ts [pollMs] [changes]
 */
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', 'bin', 'muster.js');
const pollMs = process.argv[2] ?? '200';
const changes = Number(process.argv[3] ?? '5');
const folder = mkdtempSync(join(tmpdir(), 'muster-watch-bench-'));
// A new event each run: a store that already holds a run's games would import nothing new.
const EVENT = `watch-${Date.now().toString(36)}`;
const HEADER =
  'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score';
const rows = (n: number) =>
  [
    HEADER,
    ...Array.from(
      { length: n },
      (_, i) => `${EVENT},Watch GT,2026-11-28,${i + 1},wa,Orcs,${10 + i},wb,Elves,5`,
    ),
  ].join('\n');
writeFileSync(join(folder, 'results.csv'), rows(1));
const env = {
  ...process.env,
  MUSTER_PORT: '0',
  MUSTER_LOG_LEVEL: 'info',
  MUSTER_SNAPSHOT_POLL_MS: pollMs,
};

/** A reload as the service logged it: when it started and its steps' offsets. */
interface Reload {
  startedAt: number;
  phases: Record<string, number>;
  /** The loading thread's CPU per step. */
  loaderCpuMs?: Record<string, number>;
}
const reloads: Reload[] = [];
let reloaded: (() => void) | null = null;

/** Calls `onLine` with each line `stream` writes. */
function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const all = (rest + chunk).split('\n');
    rest = all.pop() ?? '';
    for (const line of all) onLine(line);
  });
}

const serve = spawn(process.execPath, [BIN, 'serve'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((done) => {
  lines(serve.stdout, (line) => {
    const m = /listening on (http:\/\/\S+)/.exec(line);
    if (m) done(m[1]);
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as Partial<Reload> & { msg?: string };
    if (entry.msg === 'snapshot loaded' && entry.startedAt !== undefined) {
      reloads.push({
        startedAt: entry.startedAt,
        phases: entry.phases ?? {},
        loaderCpuMs: entry.loaderCpuMs,
      });
      reloaded?.();
    }
  });
});
/** When the watcher printed each import's report, and the import's own time in its report. */
const imports: { at: number; ms: number }[] = [];
const watcher = spawn(
  process.execPath,
  [BIN, 'import', '--watch', '--format', 'csv', '--system', 'watch-bench', folder],
  { env, stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((done) => {
  lines(watcher.stdout, (line) => {
    const m = /: \w+ in ([\d.]+) s, data version/.exec(line);
    if (m) imports.push({ at: Date.now(), ms: Number(m[1]) * 1000 });
    if (line.includes('watching')) done();
  });
});
let waiting: ((at: number) => void) | null = null;
get(`${url}/api/live`, { agent: false }, (res) => {
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    if (chunk.includes('event: change') && chunk.includes(EVENT)) waiting?.(Date.now());
  });
});
// The first import's reload served before the first change is written.
await new Promise<number>((done) => (waiting = done));
await new Promise((r) => setTimeout(r, 1000));

/** One change's parts, in milliseconds. */
interface Parts {
  total: number;
  settleAndImport: number;
  importOwn: number;
  notice: number;
  steps: Record<string, number>;
  signal: number;
}
const measured: Parts[] = [];
for (let k = 2; k <= changes + 1; k++) {
  const seen = new Promise<number>((done) => (waiting = done));
  const before = { imports: imports.length, reloads: reloads.length };
  const t0 = Date.now();
  writeFileSync(join(folder, 'results.csv'), rows(k));
  const at = await seen;
  // The reload that served it is the first to start after the write; its log line may come
  // just after the stream's signal.
  const served = () => reloads.slice(before.reloads).find((r) => r.startedAt >= t0);
  while (served() === undefined) await new Promise<void>((r) => (reloaded = r));
  const done = imports[imports.length - 1];
  const reload = served()!;
  const swappedAt = reload.startedAt + (reload.phases.swapped ?? 0);
  const parts: Parts = {
    total: at - t0,
    settleAndImport: done.at - t0,
    importOwn: done.ms,
    notice: reload.startedAt - done.at,
    steps: reload.phases,
    signal: at - swappedAt,
  };
  measured.push(parts);
  console.log(
    `change ${k - 1}: ${parts.total} ms = settle+import ${parts.settleAndImport} ms (import ` +
      `${parts.importOwn} ms) + notice ${parts.notice} ms + reload ` +
      `${JSON.stringify(parts.steps)} (loading thread's CPU ${JSON.stringify(reload.loaderCpuMs)}) ` +
      `+ signal ${parts.signal} ms` +
      (imports.length - before.imports > 1 ? ' (imported more than once)' : '') +
      (reloads.length - before.reloads > 1 ? ` (${reloads.length - before.reloads} reloads)` : ''),
  );
  await new Promise((r) => setTimeout(r, 1000));
}
const sorted = measured.map((p) => p.total).sort((a, b) => a - b);
console.log(`poll ${pollMs} ms: median ${sorted[Math.floor(sorted.length / 2)]} ms`);
watcher.kill('SIGTERM');
serve.kill('SIGTERM');
