/**
 * GET /api/live under `muster serve` with two server threads (docs/http-api.md#live): streams
 * on new connections land on either thread, each thread tells its own subscribers of the
 * snapshot swap an import brings (one change event each, naming the event), and SIGTERM ends
 * every stream and the process.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Game } from '../../src/domain/model.ts';
import { demoSlice } from '../support/test-app.ts';
import { SseClient } from '../support/sse-client.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-live-threads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function importFile(env: Record<string, string>, file: string): void {
  const run = spawnSync(process.execPath, [BIN, 'import', file], { env, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr + run.stdout);
}

describe('GET /api/live with two server threads', () => {
  it(
    'sends each stream on either thread one change per import, and ends them on SIGTERM',
    { timeout: 240_000 },
    async () => {
      const env = {
        ...process.env,
        MUSTER_DATABASE_URL: join(dir, 'live.db'),
        MUSTER_PORT: '0',
        MUSTER_LOG_LEVEL: 'warn',
        MUSTER_THREADS: '2',
        MUSTER_SNAPSHOT_POLL_MS: '200',
        MUSTER_LIVE_STREAMS_PER_CLIENT: '6',
      } as Record<string, string>;
      const slice = demoSlice();
      writeFileSync(join(dir, 'slice.json'), JSON.stringify(slice));
      importFile(env, join(dir, 'slice.json'));
      const child = spawn(process.execPath, [BIN, 'serve'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        const url = await new Promise<string>((done, fail) => {
          child.stdout.on('data', () => {
            const m = /listening on (http:\/\/\S+)/.exec(out);
            if (m) done(m[1]);
          });
          void exited.then((code) => fail(new Error(`exited ${code}: ${out}`)));
        });
        assert.match(out, /2 server threads/);
        const clients = Array.from({ length: 6 }, () => new SseClient(`${url}/api/live`));
        for (const c of clients) {
          await c.opened;
          assert.equal(c.status, 200);
          await c.waitFor('ready', 1, 60_000);
        }
        // The bound is the service's: a seventh stream is refused whichever thread takes it.
        for (let i = 0; i < 3; i++) {
          const refused = await fetch(`${url}/api/live`);
          assert.equal(refused.status, 429);
          await refused.body?.cancel();
        }
        const events = slice.events ?? [];
        const i = events.findLastIndex(
          (e) => e.status === 'completed' && (e.games?.length ?? 0) > 0,
        );
        const games = events[i].games ?? [];
        const round = Math.max(...games.map((g) => g.round ?? 0));
        const unplayed = (g: Game): Game =>
          g.round !== round
            ? g
            : {
                ...g,
                sides: [
                  { player: g.sides[0].player, faction: g.sides[0].faction },
                  { player: g.sides[1].player, faction: g.sides[1].faction },
                ],
              };
        const changed = { ...slice, events: [{ ...events[i], games: games.map(unplayed) }] };
        writeFileSync(join(dir, 'round.json'), JSON.stringify(changed));
        importFile(env, join(dir, 'round.json'));
        for (const c of clients) {
          const [change] = await c.waitFor('change', 1, 30_000);
          assert.deepEqual(JSON.parse(change.data).events, [events[i].id]);
        }
        await new Promise((r) => setTimeout(r, 600));
        for (const c of clients) assert.equal(c.of('change').length, 1);
        child.kill('SIGTERM');
        await Promise.all(clients.map((c) => c.ended));
        assert.equal(await exited, 0, out);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
