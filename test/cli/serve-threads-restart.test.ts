/**
 * Server threads in one process (docs/operations.md#threads): a thread that dies is started
 * again, and only its own connections fail (a client on the other thread's connection, and new
 * connections meanwhile, are answered without error); a reload moves every thread to the new
 * snapshot.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serve } from '../../src/cli/serve.ts';
import type { RunningServer } from '../../src/threads/serving-modes.ts';
import { loadConfig } from '../../src/config/config.ts';
import { bumpDataVersion, openStore } from '../../src/store/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-threads-restart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** GET `path` through `agent` (keep-alive: its one connection) or on a new connection. */
function get(base: string, path: string, agent?: Agent): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(new URL(path, base), { agent: agent ?? false }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

/** `serve` in this process with two server threads on `file`; stop() ends it. */
async function startInProcess(file: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    MUSTER_DATABASE_URL: join(dir, file),
    MUSTER_HOST: '127.0.0.1',
    MUSTER_PORT: '0',
    MUSTER_THREADS: '2',
    MUSTER_LOG_LEVEL: 'silent',
    MUSTER_RATE_LIMIT_MAX: '100000',
    ...env,
  });
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  let listening!: (server: RunningServer) => void;
  const started = new Promise<RunningServer>((resolve) => (listening = resolve));
  let base = '';
  const io = {
    out: (line: string) => {
      base = /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? base;
    },
    err: () => undefined,
    env: {},
  };
  const running = serve(config, { seedIfEmpty: false, io, until, onListening: listening });
  const server = await Promise.race([started, running.then((c) => assert.fail(`exit ${c}`))]);
  return { base, threads: server.threads!, running, stop, databaseUrl: config.databaseUrl };
}

describe('muster serve with two server threads in one process', () => {
  it('moves every thread to the new snapshot on a reload', { timeout: 180_000 }, async () => {
    const { base, threads, running, stop, databaseUrl } = await startInProcess('reload.db', {
      MUSTER_SNAPSHOT_POLL_MS: '200',
    });
    try {
      const versions = async () => {
        const seen = new Set<number>();
        for (let i = 0; i < 12; i++) {
          const response = await fetch(`${base}/api/health`, {
            headers: { connection: 'close' },
          });
          const body = (await response.json()) as {
            checks: Record<string, Array<{ dataVersion?: number }>>;
          };
          seen.add(body.checks['snapshot:games'][0].dataVersion!);
        }
        return [...seen];
      };
      const [before] = await versions();
      const store = await openStore(databaseUrl);
      const next = await store.db.transaction().execute((trx) => bumpDataVersion(trx));
      await store.close();
      assert.equal(next, before + 1);
      for (let i = 0; i < 300; i++) {
        const seen = await versions();
        if (seen.length === 1 && seen[0] === next) break;
        await new Promise((done) => setTimeout(done, 100));
      }
      assert.deepEqual(await versions(), [next], 'every thread answers with the new snapshot');
      assert.ok(
        threads.roster.list().every((t) => t.answered > 0),
        'both threads answered health',
      );
    } finally {
      stop();
    }
    assert.equal(await running, 0);
  });

  it(
    'starts a thread that died again while the other thread answers every request without error',
    { timeout: 180_000 },
    async () => {
      const { base, threads, running, stop } = await startInProcess('restart.db');
      const answered = () => threads.roster.list().map((t) => t.answered);
      const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
      const settled = async (before: number[]) => {
        for (let i = 0; i < 200 && sum(answered()) < sum(before) + 1; i++) {
          await new Promise((done) => setTimeout(done, 5));
        }
        assert.equal(sum(answered()), sum(before) + 1, 'one answer counted');
      };
      try {
        // Keep-alive connections until one is on thread 1 (the thread that will live on).
        const agents: Agent[] = [];
        let survivor: Agent | undefined;
        for (let i = 0; i < 40 && survivor === undefined; i++) {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          agents.push(agent);
          const before = answered();
          assert.equal(await get(base, '/.well-known/api-catalog', agent), 200);
          // A thread counts an answer once it has been written, which may be after the client
          // has read it: wait for this answer's count, or an earlier one landing late would
          // name the wrong thread.
          await settled(before);
          if (answered()[1] > before[1]) survivor = agent;
        }
        assert.ok(survivor !== undefined, 'a connection on thread 1');
        // While thread 0 ends, the survivor's connection answers on. (A new connection the
        // kernel queued on thread 0's listener as it closed is one of thread 0's own.)
        const lost = threads.terminate(0);
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) {
          statuses.push(await get(base, '/.well-known/api-catalog', survivor));
        }
        await lost;
        // Once it has ended, and while it starts again: that connection and new ones answer.
        for (let i = 0; i < 30; i++) {
          statuses.push(await get(base, '/.well-known/api-catalog', survivor));
          statuses.push(await get(base, '/.well-known/api-catalog'));
        }
        assert.deepEqual(new Set(statuses), new Set([200]));
        // Thread 0 serves again, once started: new connections reach it.
        for (let i = 0; i < 600 && threads.roster.list()[0].state !== 'serving'; i++) {
          await new Promise((done) => setTimeout(done, 100));
        }
        const entry = threads.roster.list()[0];
        assert.equal(entry.state, 'serving');
        assert.equal(entry.starts, 2);
        const before = answered()[0];
        for (let i = 0; i < 30; i++) {
          assert.equal(await get(base, '/.well-known/api-catalog'), 200);
        }
        assert.ok(answered()[0] > before, 'the thread started again answers');
        for (const agent of agents) agent.destroy();
      } finally {
        stop();
      }
      assert.equal(await running, 0);
    },
  );
});
