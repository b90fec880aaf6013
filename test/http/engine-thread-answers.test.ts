/**
 * Statistics answers are made where they are computed (docs/architecture.md#engine-thread): the
 * engine thread wraps, serialises and compresses them, the serving thread only writes their
 * bytes, and those bytes are the ones the route's response schema serialiser makes of the
 * engine's result.
 */
import assert from 'node:assert/strict';
import { syncBuiltinESMExports } from 'node:module';
import zlib from 'node:zlib';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { TSchema } from 'typebox';
import { runEngineTask } from '../../src/engine/engine-tasks.ts';
import type { EngineTaskArgs, EngineTaskName } from '../../src/engine/engine-tasks.ts';
import type { EngineResult } from '../../src/engine/engine-result.ts';
import type { AnswerBytes, AnswerOrder } from '../../src/http/answer-bytes.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import type { TaskWaiter } from '../../src/http/engine-runner.ts';
import { buildSerializer } from '../../src/http/plugins/serializer.ts';
import { STATS_ROUTES } from '../../src/http/routes/index.ts';
import { envelope } from '../../src/http/schemas/answer-envelope.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import {
  TEST_ORIGIN,
  buildTestApp,
  demoSlice,
  forecastBodyOf,
  projectionBodyOf,
} from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/** The engine calls an engine thread was asked to answer, kept to compute them again here. */
class RecordingThread extends EnginePool {
  readonly calls: Array<{ task: EngineTaskName; snapshot: Snapshot; args: unknown[] }> = [];
  /** The bytes each answer came with, in the order asked. */
  readonly answers: Array<Promise<AnswerBytes>> = [];

  override answer<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<AnswerBytes> {
    this.calls.push({ task, snapshot, args: [...args] });
    const bytes = super.answer(waiter, order, task, snapshot, ...args);
    this.answers.push(bytes);
    return bytes;
  }
}

/** A body whose answer is over 1 KiB, where the empty body's is not. */
const LARGE_BODIES: Record<string, object> = {
  '/api/faction-stats': { groupBy: 'quarter' },
  '/api/rankings': { includeProvisional: true },
  '/api/forecast': forecastBodyOf(demoSlice()),
  '/api/event-projection': projectionBodyOf(demoSlice()),
  '/api/team-matrix': teamMatrixBody(),
  '/api/team-pairing': {
    format: 'defender-attacker',
    gameTotal: 20,
    // After the defenders: ten pairs of attackers a team, an answer over 1 KiB.
    history: [{ defenderA: 0, defenderB: 0 }],
    matrix: Array.from({ length: 6 }, (_, i) =>
      Array.from({ length: 6 }, (_, j) => (i * 7 + j * 3) % 21),
    ),
  },
};

/** Two teams of three from the players of one demo game, each with a faction they played. */
function teamMatrixBody(): object {
  const { player1, faction1, player2, faction2 } = forecastBodyOf(demoSlice());
  const team = [
    { player: player1, faction: faction1 },
    { player: player2, faction: faction2 },
    { player: player1, faction: faction2 },
  ];
  return { teamA: team, teamB: team };
}

/** Every statistics route, a body whose answer is over 1 KiB, and its response schema. */
const ROUTES: Array<[string, object, TSchema]> = STATS_ROUTES.map((route) => [
  route.path,
  LARGE_BODIES[route.path] ?? {},
  route.response,
]);

const CODINGS = [undefined, 'zstd', 'br', 'gzip'] as const;

/**
 * Routes whose answers are under 1 KiB here (one game's forecast; the demo slice's few players
 * hold no duplicate pair), so never compressed.
 */
const SMALL = new Set(['/api/forecast', '/api/player-duplicates']);
/** The coding an answer of `url` comes in when `coding` is asked for. */
const codingOf = (url: string, coding: string | undefined) => (SMALL.has(url) ? undefined : coding);

function decoded(response: LightMyRequestResponse): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.rawPayload);
  if (coding === 'gzip') return gunzipSync(response.rawPayload);
  if (coding === 'zstd') return zstdDecompressSync(response.rawPayload);
  assert.equal(coding, undefined, `unexpected coding ${String(coding)}`);
  return response.rawPayload;
}

/** Calls of the serving thread's compressors and of replies' serialisers while installed. */
class ServingThreadSpy {
  compressions = 0;
  serialisations = 0;
  /** Compressor calls by name. */
  readonly calls = new Map<string, number>();
  private readonly originals = new Map<string, unknown>();
  private static readonly COMPRESSORS = [
    'brotliCompressSync',
    'gzipSync',
    'brotliCompress',
    'gzip',
    'createBrotliCompress',
    'createGzip',
    'deflateSync',
    'createDeflate',
    'zstdCompressSync',
    'zstdCompress',
    'createZstdCompress',
  ] as const;

  /** Counts from now on, both back to 0. */
  install(): void {
    this.compressions = 0;
    this.serialisations = 0;
    this.calls.clear();
    const target = zlib as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ServingThreadSpy.COMPRESSORS) {
      const original = target[name];
      this.originals.set(name, original);
      // The create* functions are read-only, but configurable.
      Object.defineProperty(zlib, name, {
        value: (...args: unknown[]) => {
          this.compressions++;
          this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
          return original(...args);
        },
        configurable: true,
        writable: true,
      });
    }
    // Named imports of node:zlib (import { gzipSync } …) follow the patched functions.
    syncBuiltinESMExports();
  }

  restore(): void {
    for (const [name, original] of this.originals) {
      Object.defineProperty(zlib, name, { value: original, configurable: true, writable: true });
    }
    this.originals.clear();
    syncBuiltinESMExports();
  }
}

describe(`statistics answers made on the engine thread (${TEST_BACKEND})`, () => {
  const thread = new RecordingThread();
  const spy = new ServingThreadSpy();
  let uncached: TestApp;
  let cached: TestApp;
  const countSerialise = (t: { app: TestApp['app'] }) =>
    t.app.addHook('onRequest', (_request, reply, done) => {
      const serialize = reply.serialize.bind(reply);
      reply.serialize = (payload: unknown) => {
        spy.serialisations++;
        return serialize(payload);
      };
      done();
    });

  before(async () => {
    uncached = await buildTestApp({
      seed: 'demo-slice',
      engineThread: thread,
      env: { MUSTER_RESPONSE_CACHE_MB: '0' },
      routes: (app) => countSerialise({ app }),
    });
    cached = await buildTestApp({
      store: uncached.store,
      engineThread: thread,
      routes: (app) => countSerialise({ app }),
    });
  });
  after(async () => {
    spy.restore();
    await cached.close();
    await uncached.close();
    await thread.close();
  });

  const post = (t: TestApp, url: string, body: object, coding?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        origin: TEST_ORIGIN,
        ...(coding === undefined ? {} : { 'accept-encoding': coding }),
      },
      payload: body as Record<string, unknown>,
    });

  it('answers every statistics route with the bytes its schema serialiser makes of the engine result, in each coding', async () => {
    for (const [url, body, schema] of ROUTES) {
      const serialise = buildSerializer(uncached.app.getSchemas(), undefined)({ schema });
      for (const coding of CODINGS) {
        const response = await post(uncached, url, body, coding);
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
        const text = decoded(response).toString();
        if (!SMALL.has(url)) {
          assert.ok(text.length >= 1024, `${url}: ${text.length} bytes, too few to compress`);
        }
        assert.equal(
          response.headers['content-encoding'],
          codingOf(url, coding),
          `${url} ${coding}`,
        );
        const call = thread.calls.at(-1)!;
        const run = runEngineTask as (t: EngineTaskName, s: Snapshot, ...a: unknown[]) => unknown;
        const result = run(call.task, call.snapshot, ...call.args);
        const expected = envelope(call.snapshot, result as EngineResult<unknown, unknown>);
        // The time of computation is the one thing two computations never share.
        expected.meta.generatedAt = (
          JSON.parse(text) as { meta: { generatedAt: string } }
        ).meta.generatedAt;
        assert.equal(text, serialise(expected), `${url} ${coding ?? 'identity'}: byte for byte`);
      }
    }
  });

  it('sends an answer under 1 KiB plain whatever the client accepts', async () => {
    const response = await post(uncached, '/api/army-matchup', { minGames: 1000000 }, 'br, gzip');
    assert.equal(response.statusCode, 200);
    assert.ok(response.rawPayload.length < 1024, `${response.rawPayload.length} bytes`);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.match(String(response.headers.vary), /accept-encoding/i);
    assert.equal(response.json().data.cells.length, 0);
  });

  it('neither serialises nor compresses an uncached answer on the serving thread', async () => {
    spy.install();
    try {
      for (const t of [uncached, cached]) {
        for (const [url, body] of ROUTES) {
          for (const [i, coding] of CODINGS.entries()) {
            // A body of its own per coding: each answer is computed, none is a hit.
            // A forecast takes no filter: its scenario (echoed) makes the body its own; the team
            // routes take none either: a model, or a game total; the alike players a score; a projection
            // its simulations.
            const own =
              url === '/api/forecast'
                ? { scenario: `s${i}` }
                : url === '/api/team-matrix'
                  ? { model: ['joint', 'rating', 'faction'][i] }
                  : url === '/api/team-pairing'
                    ? { gameTotal: 20 + i }
                    : url === '/api/player-duplicates'
                      ? { minScore: 0.5 + i / 10 }
                      : url === '/api/event-projection'
                        ? { simulations: 200 + i }
                        : { minParticipants: 3 + i };
            const response = await post(t, url, { ...body, ...own }, coding);
            assert.equal(response.statusCode, 200);
            const expected = codingOf(url, coding);
            assert.equal(response.headers['content-encoding'], expected, `${url} ${coding}`);
          }
        }
      }
    } finally {
      spy.restore();
    }
    assert.deepEqual([spy.serialisations, spy.compressions], [0, 0]);
  });

  it('hands over no plain bytes with an answer made in a coding and not kept', async () => {
    const plainOf = async (t: TestApp, body: object) => {
      const response = await post(t, '/api/army-matchup', body, 'zstd');
      assert.equal(response.headers['content-encoding'], 'zstd');
      return (await thread.answers.at(-1)!).plain;
    };
    assert.equal(await plainOf(uncached, { minGames: 1 }), null, 'uncached: the coding alone');
    assert.ok((await plainOf(cached, { minGames: 2 })) !== null, 'kept: the plain bytes beside');
  });

  it('answers a cached hit with the bytes kept, computing and compressing nothing', async () => {
    const body = { minParticipants: 4 };
    const first = await post(cached, '/api/faction-stats', body, 'br');
    const calls = thread.calls.length;
    spy.install();
    let again: LightMyRequestResponse;
    try {
      again = await post(cached, '/api/faction-stats', body, 'br');
    } finally {
      spy.restore();
    }
    assert.equal(first.headers['content-encoding'], 'br');
    assert.equal(again.headers['content-encoding'], 'br');
    assert.ok(again.rawPayload.equals(first.rawPayload), 'the same bytes');
    assert.equal(thread.calls.length, calls, 'not computed again');
    assert.equal(spy.compressions, 0);
    const plain = await post(cached, '/api/faction-stats', body);
    assert.equal(plain.body, decoded(first).toString(), 'the plain bytes kept beside');
    spy.install();
    let gzip: LightMyRequestResponse;
    try {
      gzip = await post(cached, '/api/faction-stats', body, 'gzip');
    } finally {
      spy.restore();
    }
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    // Another coding of a kept answer is compressed on libuv's pool, not on this thread.
    assert.deepEqual([...spy.calls], [['gzip', 1]]);
    assert.equal(decoded(gzip).toString(), plain.body, 'a new coding of the kept answer');
    assert.equal(thread.calls.length, calls, 'still computed once');
  });
});
