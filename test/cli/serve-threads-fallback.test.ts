/**
 * Where the platform refuses `reusePort` (simulated here: Linux accepts it), `muster serve`
 * serves as one serving thread with its engine threads and says so once, in the line that gives
 * its address (docs/operations.md#threads); with one thread asked for it does the same.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serve } from '../../src/cli/serve.ts';
import { reusePortRefusal, servingMode } from '../../src/threads/serving-modes.ts';
import { loadConfig } from '../../src/config/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-threads-fallback-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const configOf = (threads: string, file: string) =>
  loadConfig({
    MUSTER_DATABASE_URL: join(dir, file),
    MUSTER_HOST: '127.0.0.1',
    MUSTER_PORT: '0',
    MUSTER_THREADS: threads,
    MUSTER_LOG_LEVEL: 'silent',
  });

describe('muster serve where reusePort is refused', () => {
  it(
    'serves from one thread with its engine threads, says why once, answers and exits 0',
    { timeout: 120_000 },
    async () => {
      const lines: string[] = [];
      let stop!: () => void;
      const until = new Promise<void>((resolve) => (stop = resolve));
      let listening!: (url: string) => void;
      const url = new Promise<string>((resolve) => (listening = resolve));
      const io = {
        out: (line: string) => {
          lines.push(line);
          const m = /listening on (http:\/\/\S+)/.exec(line);
          if (m) listening(m[1]);
        },
        err: (line: string) => lines.push(line),
        env: {},
      };
      const refusals: string[] = [];
      const running = serve(configOf('2', 'refused.db'), {
        seedIfEmpty: false,
        io,
        until,
        reusePortRefusal: (host) => {
          refusals.push(host);
          return Promise.resolve('ENOTSUP: simulated');
        },
      });
      const base = await Promise.race([url, running.then((code) => `exited ${code}`)]);
      try {
        assert.match(base, /^http:/, lines.join('\n'));
        assert.deepEqual(refusals, ['127.0.0.1'], 'tried once');
        const said = lines.filter((l) => /cannot share the port/.test(l));
        assert.equal(said.length, 1, lines.join('\n'));
        assert.match(said[0], /one serving thread and 2 engine threads.*ENOTSUP: simulated/);
        assert.equal((await fetch(`${base}/api/health`)).status, 200);
        assert.equal((await fetch(`${base}/.well-known/api-catalog`)).status, 200);
        // MUSTER_PORT=0 and no MUSTER_ALLOWED_ORIGINS: the bound port's own origin may POST.
        const post = (origin: string) =>
          fetch(`${base}/api/faction-stats`, {
            method: 'POST',
            headers: { origin, 'content-type': 'application/json' },
            body: '{}',
          });
        assert.notEqual((await post(base)).status, 403);
        assert.equal((await post('http://127.0.0.1:0')).status, 403);
      } finally {
        stop();
      }
      assert.equal(await running, 0);
    },
  );

  it('chooses one serving thread for MUSTER_THREADS=1 and server threads where reusePort works', async () => {
    const one = await servingMode(configOf('1', 'one.db'), () => {
      throw new Error('not asked with one thread');
    });
    assert.equal(one.serverThreads, 0);
    assert.match(one.description, /one serving thread and 1 engine thread: MUSTER_THREADS is 1/);
    const refusal = await reusePortRefusal('127.0.0.1');
    assert.equal(refusal, null, 'Linux lets two listeners of one process share a port');
    const two = await servingMode(configOf('2', 'two.db'), reusePortRefusal);
    assert.equal(two.serverThreads, 2);
  });
});
