/**
 * The real-data section of `npm run bench`: the T9A data set (../shared/data/t9a, when it is
 * there) imported with `muster import --format t9a`, then the four answers a player reads for
 * one window (faction-stats, army-matchup, scenario-stats and item-use-stats for
 * 2026-01-01..2026-03-31, events of 8+ players), timed where the time goes: the engine call
 * alone, the whole request in process (app.inject: body parsing, validation, engine, envelope,
 * serialisation), and over loopback with a keep-alive client, uncached and cached, without and
 * with a browser's Accept-Encoding, beside a trivial GET on the same server; and the serving
 * thread's and the whole process's CPU per request of each.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchConfig } from './bench-config.ts';
import { buildAppWithEngine } from '../src/threads/app-with-engine.ts';
import { SnapshotManager } from '../src/snapshot/snapshot-manager.ts';
import { openStore } from '../src/store/store.ts';
import { BROWSER_ACCEPT_ENCODING, cpuPerRequest, cpuSample, startServer } from './bench-http.ts';
import { percentile, ROUTES, time } from './bench-queries.ts';

const REPO = resolve(import.meta.dirname, '..');
/** The archive beside the repository, as CI has it (MUSTER_BENCH_T9A overrides). */
export const T9A_ARCHIVE =
  process.env.MUSTER_BENCH_T9A ??
  resolve(REPO, '..', 'shared', 'data', 't9a', 't9a-data-until-2026-04-19.tar.xz');
const ORIGIN = 'http://localhost:8080';
const WINDOW = { from: '2026-01-01', to: '2026-03-31', minParticipants: 8 };
const FOUR = ['faction-stats', 'army-matchup', 'scenario-stats', 'item-use-stats'] as const;

export interface T9aWindowRow {
  route: string;
  bytes: number;
  /** Medians, milliseconds. */
  engineMs: number;
  injectUncachedMs: number;
  injectCachedMs: number;
  loopbackUncachedMs: number;
  loopbackCachedMs: number;
  /** With a browser's Accept-Encoding (in browserCoding): bytes on the wire and medians. */
  brBytes?: number;
  loopbackUncachedBrMs?: number;
  loopbackCachedBrMs?: number;
  /**
   * The serving thread's CPU per request, milliseconds, over `runs` requests one after another
   * (bench-server.ts's /bench/cpu): uncached without and with a browser's Accept-Encoding, and
   * cached with it.
   */
  servingCpuUncachedMs?: number;
  servingCpuUncachedBrMs?: number;
  servingCpuCachedBrMs?: number;
  /**
   * The whole process's CPU per request (every thread: serving, engine, libuv's pool, the
   * collector), milliseconds, over the same requests; absent in older results.
   */
  processCpuUncachedMs?: number;
  processCpuUncachedBrMs?: number;
  processCpuCachedBrMs?: number;
  /** The Content-Encoding answered to a browser's Accept-Encoding; absent in older results (br). */
  browserCoding?: string;
}

export interface T9aWindowResult {
  importMs: number;
  games: number;
  runs: number;
  /** Requests of a route in a row between two CPU readings; absent in older results (runs). */
  cpuRuns?: number;
  rows: T9aWindowRow[];
  /** Medians of the four requests sent one after another, milliseconds. */
  sequenceUncachedMs: number;
  sequenceCachedMs: number;
  /** The same with a browser's Accept-Encoding; absent in older results. */
  sequenceUncachedBrMs?: number;
  sequenceCachedBrMs?: number;
  trivialGetMs: number;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** A keep-alive client on one socket, as a page's fetches reuse one connection. */
function client(base: string, acceptEncoding?: string) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const accept = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  let coding: string | undefined;
  const send = (path: string, body?: unknown): Promise<number> =>
    new Promise((done, fail) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path,
          agent,
          method: payload === undefined ? 'GET' : 'POST',
          headers:
            payload === undefined
              ? {}
              : { origin: ORIGIN, 'content-type': 'application/json', ...accept },
        },
        (response) => {
          if (payload !== undefined) coding = response.headers['content-encoding'];
          let bytes = 0;
          response.on('data', (chunk: Buffer) => (bytes += chunk.length));
          response.on('end', () =>
            response.statusCode === 200
              ? done(bytes)
              : fail(new Error(`${path}: ${response.statusCode}`)),
          );
        },
      );
      request.on('error', fail);
      request.end(payload);
    });
  return { send, close: () => agent.destroy(), coding: () => coding };
}

/** Medians of each of the four requests and of their sum, sent in sequence `runs` times. */
async function sequence(
  base: string,
  runs: number,
  acceptEncoding?: string,
): Promise<{ each: number[]; total: number; bytes: number[]; trivial: number }> {
  const { send, close } = client(base, acceptEncoding);
  const each: number[][] = FOUR.map(() => []);
  const totals: number[] = [];
  const bytes: number[] = [];
  const trivial: number[] = [];
  try {
    for (let run = -5; run < runs; run++) {
      let total = 0;
      for (let i = 0; i < FOUR.length; i++) {
        const t = performance.now();
        bytes[i] = await send(`/api/${FOUR[i]}`, WINDOW);
        const elapsed = performance.now() - t;
        total += elapsed;
        if (run >= 0) each[i].push(elapsed);
      }
      const t = performance.now();
      await send('/bench/hello');
      if (run >= 0) {
        totals.push(total);
        trivial.push(performance.now() - t);
      }
    }
  } finally {
    close();
  }
  return { each: each.map(median), total: median(totals), bytes, trivial: median(trivial) };
}

/** Requests of one route in a row between two CPU readings: as a page's fetches, on one connection. */
const CPU_RUNS = 200;

/**
 * The serving thread's and the whole process's CPU per request of each of the four,
 * milliseconds: `runs` requests of one route one after another on one keep-alive connection
 * between two readings of /bench/cpu (bench-server.ts); and the coding the answers came in.
 */
async function cpuPerAnswer(
  base: string,
  runs: number,
  acceptEncoding?: string,
): Promise<{ serving: number[]; process: number[]; coding: string | undefined }> {
  const { send, close, coding } = client(base, acceptEncoding);
  const serving: number[] = [];
  const whole: number[] = [];
  try {
    for (const name of FOUR) {
      for (let i = 0; i < 5; i++) await send(`/api/${name}`, WINDOW);
      const before = await cpuSample(base);
      for (let i = 0; i < runs; i++) await send(`/api/${name}`, WINDOW);
      const after = await cpuSample(base);
      const per = cpuPerRequest(before, after, runs);
      serving.push(per.servingCpuMs ?? Number.NaN);
      whole.push(per.processCpuMs ?? Number.NaN);
    }
  } finally {
    close();
  }
  return { serving, process: whole, coding: coding() };
}

/** Medians of each route through app.inject on the store at `databaseUrl`. */
async function inProcess(
  databaseUrl: string,
  cacheMb: number,
  runs: number,
): Promise<{ inject: number[]; engine: number[] }> {
  const store = await openStore(databaseUrl);
  const snapshots = new SnapshotManager(store, { pollMs: 3_600_000 });
  await snapshots.reload();
  const config = benchConfig({ MUSTER_RESPONSE_CACHE_MB: String(cacheMb) });
  const app = await buildAppWithEngine({ config, store, snapshots }, { logger: false });
  try {
    const snapshot = snapshots.current()!;
    const engine = FOUR.map((name) => {
      const route = ROUTES.find((r) => r.route === name)!;
      return time(() => route.engine(snapshot, WINDOW), runs).median;
    });
    const inject: number[] = [];
    for (const name of FOUR) {
      const times: number[] = [];
      for (let run = -5; run < runs; run++) {
        const t = performance.now();
        const response = await app.inject({
          method: 'POST',
          url: `/api/${name}`,
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          payload: WINDOW,
        });
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.body}`);
        if (run >= 0) times.push(performance.now() - t);
      }
      inject.push(median(times));
    }
    return { inject, engine };
  } finally {
    snapshots.stop();
    await app.close();
    await store.close();
  }
}

/** Imports the T9A set into a fresh SQLite file: the file and how long the import took. */
function importT9a(dir: string): { file: string; importMs: number } {
  const unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  const untar = spawnSync('tar', ['-xJf', T9A_ARCHIVE, '-C', unpacked]);
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  const file = join(dir, 't9a.db');
  const t = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(REPO, 'bin', 'muster.js'), 'import', '--format', 't9a', join(unpacked, 'data')],
    { env: { ...process.env, MUSTER_DATABASE_URL: file }, encoding: 'utf8' },
  );
  const importMs = performance.now() - t;
  // Exit 1 means some reports were rejected (the set has 278 off the 0..20 scale): expected.
  if (run.status !== 0 && run.status !== 1) throw new Error(`muster import: ${run.stderr}`);
  return { file, importMs };
}

/**
 * The T9A window section, or why it was skipped (docs/operations.md#benchmark).
 */
export async function measureT9aWindow(
  runs = 100,
  log: (line: string) => void = () => {},
): Promise<T9aWindowResult | { skipped: string }> {
  if (!existsSync(T9A_ARCHIVE)) return { skipped: `no T9A archive at ${T9A_ARCHIVE}` };
  const dir = mkdtempSync(join(tmpdir(), 'muster-bench-t9a-'));
  try {
    const { file, importMs } = importT9a(dir);
    log(`t9a imported in ${(importMs / 1000).toFixed(1)} s`);
    const url = `sqlite:${file}`;
    const uncached = await inProcess(url, 0, runs);
    const cached = await inProcess(url, 64, runs);
    const server = await startServer(url);
    const games = server.info.games;
    let cold: Awaited<ReturnType<typeof sequence>>;
    let warm: typeof cold;
    let coldBr: typeof cold;
    let warmBr: typeof cold;
    let cpu: Array<Awaited<ReturnType<typeof cpuPerAnswer>>>;
    try {
      cold = await sequence(server.info.url, runs);
      warm = await sequence(server.info.cachedUrl, runs);
      coldBr = await sequence(server.info.url, runs, BROWSER_ACCEPT_ENCODING);
      warmBr = await sequence(server.info.cachedUrl, runs, BROWSER_ACCEPT_ENCODING);
      cpu = [
        await cpuPerAnswer(server.info.url, CPU_RUNS),
        await cpuPerAnswer(server.info.url, CPU_RUNS, BROWSER_ACCEPT_ENCODING),
        await cpuPerAnswer(server.info.cachedUrl, CPU_RUNS, BROWSER_ACCEPT_ENCODING),
      ];
    } finally {
      await server.stop();
    }
    return {
      importMs,
      games,
      runs,
      cpuRuns: CPU_RUNS,
      rows: FOUR.map((route, i) => ({
        route,
        bytes: cold.bytes[i],
        engineMs: uncached.engine[i],
        injectUncachedMs: uncached.inject[i],
        injectCachedMs: cached.inject[i],
        loopbackUncachedMs: cold.each[i],
        loopbackCachedMs: warm.each[i],
        brBytes: coldBr.bytes[i],
        loopbackUncachedBrMs: coldBr.each[i],
        loopbackCachedBrMs: warmBr.each[i],
        servingCpuUncachedMs: cpu[0].serving[i],
        servingCpuUncachedBrMs: cpu[1].serving[i],
        servingCpuCachedBrMs: cpu[2].serving[i],
        processCpuUncachedMs: cpu[0].process[i],
        processCpuUncachedBrMs: cpu[1].process[i],
        processCpuCachedBrMs: cpu[2].process[i],
        browserCoding: cpu[1].coding,
      })),
      sequenceUncachedMs: cold.total,
      sequenceCachedMs: warm.total,
      sequenceUncachedBrMs: coldBr.total,
      sequenceCachedBrMs: warmBr.total,
      trivialGetMs: (cold.trivial + warm.trivial) / 2,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
