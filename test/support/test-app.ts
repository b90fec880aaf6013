/**
 * Builds the real app over a fresh test store (test/support/test-store.ts, so both backends)
 * with a given configuration. Extra test-only routes can be added before the app is ready; they
 * get every generic protection (origin guard, rate limit, time limit) like real routes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/config.ts';
import type { Config } from '../../src/config/config.ts';
import { buildApp } from '../../src/http/app.ts';
import type { BuildAppOptions } from '../../src/http/app.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import type { EngineRunner } from '../../src/http/engine-runner.ts';
import type { ServiceMetrics } from '../../src/http/metrics.ts';
import { seedDemo } from '../../src/cli/seed-demo.ts';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { isUnplayed } from '../../src/domain/unplayed-game.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import type { Store } from '../../src/store/store.ts';
import { sharedStore } from './shared-store.ts';
import { openTestStore } from './test-store.ts';
import type { TestStore } from './test-store.ts';

/** The default allowed origin of a test app (MUSTER_PORT 8080, no MUSTER_ALLOWED_ORIGINS). */
export const TEST_ORIGIN = 'http://localhost:8080';

export interface TestAppOptions {
  /** MUSTER_* variables, parsed by the real loadConfig (defaults otherwise, not process.env). */
  env?: Record<string, string>;
  /** Overrides applied after parsing. The rate limit defaults to 1,000,000 unless set here. */
  config?: Partial<Config>;
  /** Registers test-only routes before the app is ready. */
  routes?: (app: FastifyInstance) => void;
  /** Reuse a store (e.g. two apps over one database); otherwise a fresh one is opened. */
  store?: TestStore;
  /**
   * Data imported before the app starts: a canonical document, the demo data `npm start` seeds,
   * a small slice of it, or real T9A data (see t9aSeedPaths; the caller skips when it is
   * unavailable).
   */
  seed?: 'demo' | 'demo-slice' | 't9a' | CanonicalDocument;
  /**
   * Over the pass's store of `seed`, imported once a pass by the first app to ask
   * (shared-store.ts), instead of a fresh store with the seed imported: for apps that only read.
   */
  shared?: boolean;
  logger?: BuildAppOptions['logger'];
  rateLimitNamespace?: string;
  /** The engine thread(s) to use (closed by the caller); otherwise the app gets its own. */
  engineThread?: EngineRunner;
  /** Prometheus metrics the app reports to (docs/operations.md#metrics). */
  metrics?: ServiceMetrics;
}

export interface TestApp {
  app: FastifyInstance;
  store: TestStore;
  config: Config;
  /** Polls only when asked: call refresh() after importing into a running app. */
  snapshots: SnapshotManager;
  /** Where the statistics compute; started on first use (`await engineThread.start()` to start it now). */
  engineThread: EngineRunner;
  /** Closes the app and, when it opened it, the store. */
  close(): Promise<void>;
}

const REPO = resolve(import.meta.dirname, '../..');
const T9A_FIXTURE = join(REPO, 'test/fixtures/t9a');
const T9A_TARBALL = join(REPO, '../shared/data/t9a/t9a-data-until-2026-04-19.tar.xz');
let cachedT9a: string[] | null | undefined;

/**
 * Folders of real T9A tournaments to import: the committed fixture slice when present,
 * otherwise the tournaments of 2025's last quarter from the shared tarball (unpacked into a temp dir, removed
 * at exit); null when neither exists.
 */
export function t9aSeedPaths(): string[] | null {
  if (cachedT9a !== undefined) return cachedT9a;
  if (existsSync(T9A_FIXTURE)) return (cachedT9a = [T9A_FIXTURE]);
  if (!existsSync(T9A_TARBALL)) return (cachedT9a = null);
  const dir = mkdtempSync(join(tmpdir(), 'muster-t9a-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  execFileSync('tar', ['-xJf', T9A_TARBALL, '-C', dir]);
  const data = join(dir, 'data');
  cachedT9a = readdirSync(data)
    .map((name) => join(data, name))
    .filter((folder) => {
      const meta = JSON.parse(readFileSync(join(folder, 'metaData.json'), 'utf8')) as {
        start?: string;
      };
      return typeof meta.start === 'string' && meta.start >= '2025-10' && meta.start < '2026';
    });
  return cachedT9a;
}

let cachedSlice: CanonicalDocument | undefined;

/**
 * The demo data cut down to its last three completed events and every scheduled one (about
 * 140 games, satellites ahead of today): enough for every route to answer with numbers.
 */
export function demoSlice(): CanonicalDocument {
  if (cachedSlice === undefined) {
    const doc = generateDemo({ today: new Date().toISOString().slice(0, 10) });
    const events = doc.events ?? [];
    cachedSlice = {
      ...doc,
      events: [
        // Finished events: the one under way (a round paired, not played) is left out.
        ...events
          .filter((e) => e.status === 'completed' && !(e.games ?? []).some(isUnplayed))
          .slice(-3),
        ...events.filter((e) => e.status === 'scheduled'),
      ],
    };
  }
  return cachedSlice;
}

type Seed = NonNullable<TestAppOptions['seed']>;

/** Imports `seed` into `store` (TestAppOptions.seed). */
async function importSeed(store: Store, seed: Seed): Promise<void> {
  if (seed === 't9a') {
    const paths = t9aSeedPaths();
    if (paths === null) throw new Error('no T9A data available; check t9aSeedPaths() first');
    await importSources(store, paths, { format: 't9a' });
  } else if (seed === 'demo') {
    await seedDemo(store);
  } else {
    const document = seed === 'demo-slice' ? demoSlice() : seed;
    const report = await importCanonical(store, document, { source: 'test-seed' });
    if (report.rejects.length > 0) {
      throw new Error(`test seed rejected: ${JSON.stringify(report.rejects.slice(0, 3))}`);
    }
  }
}

/**
 * The pass's store of `seed` (shared-store.ts), named after what it holds: the committed T9A
 * slice, the demo of today, or a document by the SHA-256 of its JSON (the demo slice included,
 * which depends on the day).
 */
function sharedSeedStore(seed: Seed): Promise<TestStore> {
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const name =
    seed === 't9a' ? 't9a_slice' : seed === 'demo' ? `demo_${today}` : documentName(seed);
  return sharedStore(name, (store) => importSeed(store, seed));
}

/** A document's store name, hashed once per document object (a test builds several apps over one). */
const documentNames = new WeakMap<CanonicalDocument, string>();
function documentName(seed: 'demo-slice' | CanonicalDocument): string {
  const document = seed === 'demo-slice' ? demoSlice() : seed;
  let name = documentNames.get(document);
  if (name === undefined) {
    const hash = createHash('sha256').update(JSON.stringify(document)).digest('hex');
    documentNames.set(document, (name = `doc_${hash.slice(0, 16)}`));
  }
  return name;
}

/** A ready app over openTestStore() with the given configuration. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const parsed = loadConfig({ MUSTER_LOG_LEVEL: 'silent', ...options.env });
  const config: Config = Object.freeze({
    ...parsed,
    ...(options.env?.MUSTER_RATE_LIMIT_MAX === undefined ? { rateLimitMax: 1_000_000 } : {}),
    ...options.config,
  });
  const ownStore = options.store === undefined;
  let store: TestStore;
  if (options.shared) {
    if (options.store !== undefined || options.seed === undefined)
      throw new Error('a shared store is its seed, once a pass: give a seed and no store');
    store = await sharedSeedStore(options.seed);
  } else {
    store = options.store ?? (await openTestStore());
    if (options.seed !== undefined) await importSeed(store, options.seed);
  }
  const snapshots = new SnapshotManager(store, { pollMs: 3_600_000 });
  await snapshots.start();
  const engineThread: EngineRunner = options.engineThread ?? new EnginePool();
  const app = await buildApp(
    { config, store, snapshots, engineThread, metrics: options.metrics },
    { logger: options.logger ?? false, rateLimitNamespace: options.rateLimitNamespace },
  );
  options.routes?.(app);
  await app.ready();
  return {
    app,
    store,
    config,
    snapshots,
    engineThread,
    async close() {
      snapshots.stop();
      await app.close();
      if (options.engineThread === undefined) await engineThread.close();
      if (ownStore) await store.close();
    },
  };
}

/**
 * A POST /api/forecast body naming the two players and factions of the first game of `doc`
 * that has both: a forecast names players, which differ from one data set to another.
 */
export function forecastBodyOf(doc: CanonicalDocument, system?: string): Record<string, string> {
  for (const event of doc.events ?? []) {
    if (system !== undefined && event.system !== system) continue;
    for (const game of event.games ?? []) {
      const [a, b] = game.sides ?? [];
      if (a?.player && b?.player && a.faction && b.faction) {
        const players = { player1: a.player, player2: b.player };
        const body = { ...players, faction1: a.faction, faction2: b.faction };
        return system === undefined ? body : { system, ...body };
      }
    }
  }
  throw new Error('no game with two players and factions');
}

/**
 * A POST /api/event-projection body naming a completed singles event of `doc` (the latest whose
 * games have round numbers, after its first round; else the latest, every round counted): an
 * event id differs from one data set to another.
 */
export function projectionBodyOf(doc: CanonicalDocument, system?: string): Record<string, unknown> {
  const events = (doc.events ?? []).filter(
    (e) =>
      (system === undefined || e.system === system) &&
      (e.format ?? 'singles') === 'singles' &&
      (e.status ?? 'completed') === 'completed' &&
      (e.games ?? []).length > 0,
  );
  const numbered = events.filter((e) =>
    (e.games ?? []).some((g) => typeof g.round === 'number' && g.round > 1),
  );
  const event = numbered.at(-1) ?? events.at(-1);
  if (event === undefined) throw new Error('no completed singles event with games');
  const body =
    event === numbered.at(-1)
      ? { event: event.id, afterRound: 1, simulations: 200 }
      : { event: event.id, simulations: 200 };
  return system === undefined ? body : { system, ...body };
}
