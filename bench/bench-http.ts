/**
 * The HTTP half of `npm run bench`: starts bench/bench-server.ts as its own process, loads each
 * route with autocannon (as a library) beside a hello-world route on the same server, and
 * measures how long requests wait while the server reloads its snapshot.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { percentile } from './bench-queries.ts';

const SERVER = resolve(import.meta.dirname, 'bench-server.ts');
const ORIGIN = 'http://localhost:8080';

export interface ServerInfo {
  /** The app without a response cache. */
  url: string;
  /** The same app over the same snapshot with a 64 MiB response cache. */
  cachedUrl: string;
  games: number;
  loadMs: number;
  readyMs: number;
  longestWarmStepMs: number;
  rssBytes: number;
  heapUsedBytes: number;
  arrayBuffersBytes: number;
  snapshotBytes: number;
  /** Engine threads the server computes on (before the engine pool: node:cluster workers). */
  workers: number;
  /** RSS once every statistics route has answered once (the load section), when measured. */
  answeredRssBytes?: number;
  /** Whether the snapshot was built and written to its file, or read from it (when one is set). */
  snapshotFile?: 'written' | 'read';
}

export interface RunningServer {
  info: ServerInfo;
  /** The server's process id (its /proc entries: memory high-water marks). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the benchmark server on `databaseUrl` with `workers` engine threads, answering uncached
 * on one port and cached on another; with `snapshotFile`, it reads its snapshot from that file
 * when the file matches the data, else builds it and writes the file.
 */
export function startServer(
  databaseUrl: string,
  workers = 1,
  snapshotFile?: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  // BENCH_SERVER_FLAGS: extra node flags for the server alone (e.g. --trace-gc when profiling).
  const flags = process.env.BENCH_SERVER_FLAGS?.split(' ').filter((f) => f !== '') ?? [];
  const args = ['--expose-gc', ...flags, SERVER];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_ENGINE_THREADS: String(workers),
      ...(snapshotFile === undefined ? {} : { BENCH_SNAPSHOT_FILE: snapshotFile }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line === undefined) return;
      done({
        info: JSON.parse(line) as ServerInfo,
        pid: child.pid!,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    void exited.then(() => fail(new Error('the benchmark server exited before listening')));
  });
}

export interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The Accept-Encoding sent (none: the client asks for no coding). */
  acceptEncoding?: string;
}

export interface LoadResult {
  connections: number;
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Mean bytes a response took on the wire (headers included); absent in older results. */
  bytesPerResponse?: number;
  /** Requests answered during the load. */
  requests?: number;
  /**
   * CPU milliseconds per request of the server's serving (main) thread, from
   * process.threadCpuUsage(); absent in older results.
   */
  servingCpuMs?: number;
  /** CPU milliseconds per request of the whole server process (process.cpuUsage), every thread. */
  processCpuMs?: number;
}

/** What GET /bench/cpu answers: CPU so far, microseconds (bench-server.ts). */
interface CpuSample {
  servingUs: number;
  processUs: number;
}

/** The CPU the server at `url` has used so far (bench-server.ts), or null on a server without it. */
export async function cpuSample(url: string): Promise<CpuSample | null> {
  const response = await fetch(`${new URL(url).origin}/bench/cpu`);
  return response.ok ? ((await response.json()) as CpuSample) : null;
}

/** CPU milliseconds per request between two samples, serving thread and whole process. */
export function cpuPerRequest(
  before: CpuSample | null,
  after: CpuSample | null,
  requests: number,
): { servingCpuMs?: number; processCpuMs?: number } {
  if (before === null || after === null || requests === 0) return {};
  const per = (us: number) => us / 1000 / requests;
  return {
    servingCpuMs: per(after.servingUs - before.servingUs),
    processCpuMs: per(after.processUs - before.processUs),
  };
}

/** The Accept-Encoding a browser sends (Chrome, Firefox). */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Resolves once the server's engine threads have answered every task sent to them. */
export async function engineDrained(url: string): Promise<void> {
  for (;;) {
    const { queued } = (await (await fetch(`${url}/bench/engine-queue`)).json()) as {
      queued: number;
    };
    if (queued === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Seconds of the same load run before each measured one and not measured (bench-sections.ts):
 * without it, one slow second (10,697 requests against a median second of 17,375, likely the
 * route's warm-up) weighed a third of a 3-s load's figure (docs/operations.md#scale-model).
 */
export const WARM_UP_SECONDS = 1;

/** Loads one target for `seconds` with `connections` concurrent keep-alive clients. */
export async function loadTarget(
  url: string,
  target: Target,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const before = await cpuSample(url);
  const result = await autocannon({
    url: url + target.path,
    method: target.method,
    connections,
    duration: seconds,
    headers: {
      ...(target.method === 'POST' ? { origin: ORIGIN, 'content-type': 'application/json' } : {}),
      ...(target.acceptEncoding === undefined ? {} : { 'accept-encoding': target.acceptEncoding }),
    },
    body: target.body === undefined ? undefined : JSON.stringify(target.body),
  });
  const after = await cpuSample(url);
  return {
    requests: result.requests.total,
    ...cpuPerRequest(before, after, result.requests.total),
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerResponse:
      result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
  };
}

export interface ReloadResult {
  reloadMs: number;
  longestWarmStepMs: number;
  probes: number;
  maxWaitMs: number;
  p99WaitMs: number;
}

/** GET /api/health every 20 ms while `work` runs: its result and the sorted waits. */
async function probeHealth<T>(url: string, work: () => Promise<T>): Promise<[T, number[]]> {
  const waits: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    return [await work(), waits];
  } finally {
    running = false;
    await probe;
    waits.sort((a, b) => a - b);
  }
}

export interface QuietResult {
  probes: number;
  maxWaitMs: number;
  p99WaitMs: number;
}

/**
 * Sends GET /api/health every 20 ms for `ms` while the server does nothing else: the waits a
 * loaded machine adds by itself, the baseline of the reload's and the rankings' waits.
 */
export async function measureQuiet(url: string, ms: number): Promise<QuietResult> {
  const [, waits] = await probeHealth(url, () => new Promise((r) => setTimeout(r, ms)));
  return {
    probes: waits.length,
    maxWaitMs: waits[waits.length - 1],
    p99WaitMs: percentile(waits, 99),
  };
}

/** Sends GET /api/health every 20 ms while the server reloads its snapshot; the waits. */
export async function measureReload(url: string): Promise<ReloadResult> {
  const [reload, waits] = await probeHealth(url, async () => {
    const started = await fetch(`${url}/bench/reload`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: '{}',
    });
    if (started.status !== 202)
      throw new Error(`reload: ${started.status} ${await started.text()}`);
    // Polled, not awaited on one request: a reload at ten million games outlasts HTTP timeouts.
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const state = (await (await fetch(`${url}/bench/reload-state`)).json()) as
        | { state: 'running' }
        | { state: 'done'; reloadMs: number; longestWarmStepMs: number }
        | { state: 'failed'; message: string };
      if (state.state === 'done') return state;
      if (state.state === 'failed') throw new Error(`reload failed: ${state.message}`);
    }
  });
  return {
    reloadMs: reload.reloadMs,
    longestWarmStepMs: reload.longestWarmStepMs,
    probes: waits.length,
    maxWaitMs: waits[waits.length - 1],
    p99WaitMs: percentile(waits, 99),
  };
}

export interface RankingsStallResult {
  /** Milliseconds each rankings request took, with parameters not asked for before. */
  rankingsMs: number[];
  probes: number;
  maxWaitMs: number;
  p99WaitMs: number;
}

/**
 * Sends GET /api/health every 20 ms while rankings with parameters never asked before compute
 * (on the engine thread, docs/architecture.md#engine-thread); the waits.
 */
export async function measureRankingsStall(url: string): Promise<RankingsStallResult> {
  const bodies = [
    { glicko2: { tau: 0.71 } },
    { glicko2: { tau: 0.72, period: 'week' } },
    { method: 'elo', elo: { k: 24 } },
    { method: 'points', points: { bestN: 5 } },
  ];
  const [rankingsMs, waits] = await probeHealth(url, async () => {
    const times: number[] = [];
    for (const body of bodies) {
      const t = performance.now();
      const response = await fetch(`${url}/api/rankings`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`rankings: ${response.status}`);
      times.push(performance.now() - t);
    }
    return times;
  });
  return {
    rankingsMs,
    probes: waits.length,
    maxWaitMs: waits[waits.length - 1],
    p99WaitMs: percentile(waits, 99),
  };
}

/**
 * Sends each target once to `url` (uncached: every engine thread computes and keeps what it
 * keeps), then reads the server's RSS after a collection.
 */
export async function rssAfterAnswering(url: string, targets: readonly Target[]): Promise<number> {
  for (const target of targets) {
    for (let i = 0; i < 4; i++) {
      const response = await fetch(url + target.path, {
        method: target.method,
        headers:
          target.method === 'POST' ? { origin: ORIGIN, 'content-type': 'application/json' } : {},
        body: target.body === undefined ? undefined : JSON.stringify(target.body),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${target.path}: ${response.status}`);
    }
  }
  const memory = (await (await fetch(`${url}/bench/memory`)).json()) as { rss: number };
  return memory.rss;
}
