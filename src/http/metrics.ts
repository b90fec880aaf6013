/**
 * What an operator watches (docs/operations.md#metrics): Prometheus metrics of the one service
 * (prom-client, on a registry of its own), served on a listener of their own
 * (MUSTER_METRICS_PORT), so they are neither rate limited nor reachable on the public routes.
 * Latency per route and response-cache outcome is observed here; the rest is read from its
 * source when scraped: the engine threads' queue, the response cache, the snapshot, the store's
 * import runs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { SnapshotStatus } from '../snapshot/snapshot-status.ts';
import type { EngineRunner } from './engine-runner.ts';
import type { ResponseCache } from './response-cache.ts';

/** A server thread's state in the roster (src/threads/shared-limits.ts keeps it). */
export type ThreadState = 'starting' | 'serving' | 'closing' | 'stopped';

/** One thread as health and the metrics list it. */
export interface ThreadEntry {
  readonly thread: number;
  readonly state: ThreadState;
  /** Requests it has answered. */
  readonly answered: number;
  /** Times it was started (more than 1: it died and was started again). */
  readonly starts: number;
}

/** A registry's metrics as data, as one thread hands them to another. */
export type MetricsData = MetricObjectWithValues<MetricValue<string>>[];

/**
 * How the response cache answered a request: `hit`, `miss` (computed, or joined the same
 * computation in flight), `off` (the cache is off) or `none` (a route without the cache).
 */
export type CacheOutcome = 'hit' | 'miss' | 'off' | 'none';

const outcomes = new WeakMap<FastifyRequest, CacheOutcome>();

/** Notes how the response cache answered `request`, for its latency's `cache` label. */
export function noteCacheOutcome(request: FastifyRequest, outcome: CacheOutcome): void {
  outcomes.set(request, outcome);
}

/** The store's import runs: how many by status, and how long the last finished one took. */
/** The store's import runs by status, and the last finished one's duration (a probe's read). */
export interface ImportRuns {
  readonly byStatus: Readonly<Record<string, number>>;
  readonly lastSeconds: number | null;
}

export interface MetricsSources {
  readonly engines?: Pick<EngineRunner, 'queued'> & {
    readonly size?: number;
    /** Expensive computations started (EnginePool.expensiveComputations). */
    readonly expensive?: () => number;
  };
  readonly responseCache?: ResponseCache;
  readonly snapshot?: () => SnapshotStatus | null;
  readonly importRuns?: () => Promise<ImportRuns>;
  /** Every server thread's state and answers, when several serve. */
  readonly roster?: { list(): ThreadEntry[] };
  /**
   * The other threads' metrics, when several serve: each scrape asks every thread for its own
   * and adds them up with this thread's, so one scrape covers the service.
   */
  readonly threads?: () => Promise<MetricsData[]>;
}

export interface ServiceMetricsOptions {
  /**
   * Whether these metrics include the process's own (CPU, memory, event loop): the main
   * thread's do; a server thread's leave them to it, so that a sum over threads counts them once.
   */
  readonly process?: boolean;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LOAD_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 90, 120, 300];

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly latency: Histogram<'route' | 'method' | 'status' | 'cache'>;
  private readonly loads: Histogram<'phase'>;
  private readonly sources: MetricsSources = {};

  constructor(options: ServiceMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.process !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'muster_' });
    this.latency = new Histogram({
      name: 'muster_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern, method, status and response-cache outcome (hit, miss, off, none)',
      labelNames: ['route', 'method', 'status', 'cache'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.loads = new Histogram({
      name: 'muster_snapshot_load_duration_seconds',
      help: 'Snapshot (re)loads: phase "load" reads the store and builds the snapshot and its caches; phase "ready" runs until it is served, engine threads prepared',
      labelNames: ['phase'],
      buckets: LOAD_BUCKETS,
      registers,
    });
    this.snapshotGauges();
    this.engineGauges();
    this.cacheMetrics();
    this.importGauges();
    this.threadMetrics();
  }

  /** Each server thread's answers and restarts, read from the roster when scraped. */
  private threadMetrics(): void {
    const registers = [this.registry];
    const sources = this.sources;
    const perThread = (name: string, help: string, value: (t: ThreadEntry) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['thread'],
        registers,
        collect() {
          if (sources.roster === undefined) return;
          this.reset();
          for (const t of sources.roster.list()) this.inc({ thread: String(t.thread) }, value(t));
        },
      });
    perThread(
      'muster_thread_requests_total',
      'Requests each server thread answered',
      (t) => t.answered,
    );
    perThread(
      'muster_thread_restarts_total',
      'Times each server thread was started again after it died',
      (t) => Math.max(0, t.starts - 1),
    );
  }

  /** The served snapshot, read when scraped. */
  private snapshotGauges(): void {
    const registers = [this.registry];
    const sources = this.sources;
    const snapshotGauge = (name: string, help: string, value: (s: SnapshotStatus) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const status = sources.snapshot?.() ?? null;
          if (status !== null) this.set(value(status));
        },
      });
    snapshotGauge('muster_snapshot_games', 'Games in the snapshot served', (s) => s.games);
    snapshotGauge(
      'muster_snapshot_data_version',
      'Data version of the snapshot served',
      (s) => s.dataVersion,
    );
    snapshotGauge(
      'muster_snapshot_bytes',
      "Bytes of the served snapshot's columns",
      (s) => s.bytes,
    );
  }

  /** The engine threads and their queue, read when scraped. */
  private engineGauges(): void {
    const registers = [this.registry];
    const sources = this.sources;
    new Gauge({
      name: 'muster_engine_queue_length',
      help: 'Engine computations sent to the engine threads and not yet answered',
      registers,
      collect() {
        if (sources.engines !== undefined) this.set(sources.engines.queued());
      },
    });
    new Gauge({
      name: 'muster_engine_threads',
      help: 'Engine threads computing on the snapshot',
      registers,
      collect() {
        if (sources.engines?.size !== undefined) this.set(sources.engines.size);
      },
    });
    new Gauge({
      name: 'muster_engine_expensive_computations',
      help: 'Computations started in the expensive lane since start: ratings of a parameter set or a model computed to be kept',
      registers,
      collect() {
        const expensive = sources.engines?.expensive;
        if (expensive !== undefined) this.set(expensive());
      },
    });
  }

  /** The response cache's size and outcomes, read when scraped. */
  private cacheMetrics(): void {
    const registers = [this.registry];
    const sources = this.sources;
    const cacheStats = () => sources.responseCache?.stats() ?? null;
    // With server threads every thread reads the one shared cache: a scrape takes its figures
    // once (the largest, the latest read), not their sum over threads.
    const aggregator = 'max' as const;
    new Gauge({
      name: 'muster_response_cache_bytes',
      help: 'Bytes of serialised answers in the response cache',
      registers,
      aggregator,
      collect() {
        const stats = cacheStats();
        if (stats !== null) this.set(stats.bytes);
      },
    });
    new Gauge({
      name: 'muster_response_cache_entries',
      help: 'Answers in the response cache, each content coding counted',
      registers,
      aggregator,
      collect() {
        const stats = cacheStats();
        if (stats !== null) this.set(stats.entries);
      },
    });
    new Gauge({
      name: 'muster_response_cache_hit_ratio',
      help: 'Response-cache hits over hits and misses since start (0 before any)',
      registers,
      aggregator,
      collect() {
        const stats = cacheStats();
        if (stats === null) return;
        const asked = stats.hits + stats.misses;
        this.set(asked === 0 ? 0 : stats.hits / asked);
      },
    });
    for (const outcome of ['hits', 'misses'] as const) {
      new Counter({
        name: `muster_response_cache_${outcome}_total`,
        help: `Response-cache ${outcome} since start`,
        registers,
        aggregator,
        collect() {
          const stats = cacheStats();
          if (stats === null) return;
          this.reset();
          this.inc(stats[outcome]);
        },
      });
    }
  }

  /** The store's import runs, read when scraped. */
  private importGauges(): void {
    const registers = [this.registry];
    const sources = this.sources;
    // One store read a scrape, shared by the gauges below; a store that does not answer leaves
    // their last values and reads 0 in muster_store_reachable, so a scrape never fails for it.
    let runs: Promise<ImportRuns | null> | null = null;
    const readRuns = () => {
      if (sources.importRuns === undefined) return Promise.resolve(null);
      runs ??= sources
        .importRuns()
        .catch(() => null)
        .finally(() => setImmediate(() => (runs = null)));
      return runs;
    };
    new Gauge({
      name: 'muster_store_reachable',
      help: 'Whether the store answered this scrape (1) or not (0; statistics still answer from the snapshot)',
      registers,
      async collect() {
        if (sources.importRuns === undefined) return;
        this.set((await readRuns()) === null ? 0 : 1);
      },
    });
    new Gauge({
      name: 'muster_import_runs',
      help: 'Import runs recorded in the store, by status (running, imported, rejected, failed, interrupted)',
      labelNames: ['status'],
      registers,
      async collect() {
        const read = await readRuns();
        if (read === null) return;
        this.reset();
        for (const [status, count] of Object.entries(read.byStatus)) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'muster_import_last_duration_seconds',
      help: 'How long the last finished import run took',
      registers,
      async collect() {
        const read = await readRuns();
        if (read !== null && read.lastSeconds !== null) this.set(read.lastSeconds);
      },
    });
  }

  /** Where the scraped values come from; set once the service has built them. */
  watch(sources: MetricsSources): void {
    Object.assign(this.sources, sources);
  }

  /** Observes every answer of `app`: its time, route pattern, status and cache outcome. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      this.latency.observe(
        {
          // The pattern, not the URL: a client cannot add series by asking for new paths.
          route: request.routeOptions.url ?? 'unmatched',
          method: request.method,
          status: String(reply.statusCode),
          cache: outcomes.get(request) ?? 'none',
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  /** A snapshot (re)load: how long loading took, and how long until it was served. */
  observeLoad(status: SnapshotStatus, readyMs: number): void {
    this.loads.observe({ phase: 'load' }, status.loadMs / 1000);
    this.loads.observe({ phase: 'ready' }, readyMs / 1000);
  }

  /** The exposition text (Prometheus text format 0.0.4) and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const threads = this.sources.threads;
    if (threads === undefined) {
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    }
    const all = [(await this.registry.getMetricsAsJSON()) as MetricsData, ...(await threads())];
    const sum = AggregatorRegistry.aggregate(all);
    return { contentType: this.registry.contentType, body: await sum.metrics() };
  }

  /** These metrics as data, for the thread that answers scrapes to add up. */
  async data(): Promise<MetricsData> {
    return (await this.registry.getMetricsAsJSON()) as MetricsData;
  }
}
