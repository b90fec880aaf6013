/**
 * What an import's record says stays true and small (docs/operations.md#import-records,
 * docs/operations.md#limits): a streamed import that was stopped half-way says how many batches
 * (and games) it committed, and health's import:last stays a few KiB after an import with a
 * hundred thousand rejects.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { buildTestApp } from '../support/test-app.ts';
import { openSharedTestStore, openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const REPO = resolve(import.meta.dirname, '../..');

/** NDJSON: the reference data, then `events` events of one game each. */
function eventLines(events: number): string {
  const { events: _, ...reference } = smallDocument();
  const lines = [JSON.stringify(reference)];
  for (let i = 0; i < events; i++) {
    lines.push(
      JSON.stringify({
        format: 'muster/v1',
        events: [
          {
            id: `ev-${i}`,
            system: 'tow',
            name: `Event ${i}`,
            start: '2025-04-05',
            games: [
              {
                id: `g-${i}`,
                sides: [
                  { player: 'p1', faction: 'VS', score: 12 },
                  { player: 'p2', faction: 'HE', score: 8 },
                ],
              },
            ],
          },
        ],
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

describe(`an import's record stays true and small (${TEST_BACKEND})`, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-record-bounds-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says how many batches and games a streamed import had committed when its process was killed', async () => {
    const { store, cleanup } = await openSharedTestStore();
    try {
      const path = join(dir, 'events.ndjson');
      writeFileSync(path, eventLines(20));
      // The child dies (SIGKILL, no clean-up at all) once its third batch has committed.
      const script = `
        import { importSources } from ${JSON.stringify(join(REPO, 'src/ingest/import-sources.ts'))};
        import { openMigratedStore } from ${JSON.stringify(join(REPO, 'src/store/store.ts'))};
        const store = await openMigratedStore(${JSON.stringify(store.url)});
        let batches = 0;
        await importSources(store, [${JSON.stringify(path)}], {
          format: 'ndjson',
          batchGames: 2,
          onBatch: () => {
            if (++batches === 3) process.kill(process.pid, 'SIGKILL');
          },
        });
        process.exit(3);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: REPO,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const [code, signal] = await new Promise<[number | null, string | null]>((done) =>
        child.once('exit', (c, s) => done([c, s])),
      );
      assert.equal(signal, 'SIGKILL', `the child was killed (exit ${code})`);
      const games = (await store.db.selectFrom('games').select('id').execute()).length;
      assert.ok(games > 0 && games < 20, `${games} games landed`);

      // The next import marks it interrupted and says so, with what it kept.
      const other = join(dir, 'players.json');
      writeFileSync(other, JSON.stringify({ format: 'muster/v1', players: [{ id: 'p9' }] }));
      const out: string[] = [];
      const exit = await main(['import', other], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        env: { MUSTER_DATABASE_URL: store.url },
      });
      assert.equal(exit, 0, out.join('\n'));
      const record = await store.db
        .selectFrom('imports')
        .select(['status', 'summary'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      assert.equal(record.status, 'interrupted');
      const said = `3 batch(es) committed: ${games} records read, ${games} games written`;
      assert.ok(record.summary?.includes(said), `${record.summary} says "${said}"`);
      assert.ok(
        out.some((l) => l.includes('marked interrupted') && l.includes(said)),
        out.join('\n'),
      );
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('keeps health under 4 KiB after an import with 100,000 rejects', async () => {
    const store = await openTestStore();
    const t = await buildTestApp({ store });
    try {
      const lines = Array.from({ length: 100_000 }, (_, i) => `{"bad":${i}}`).join('\n');
      await importSources(store, ['-'], { format: 'ndjson', stdin: async () => `${lines}\n` });
      const answer = await t.app.inject({ method: 'GET', url: '/api/health' });
      assert.ok(answer.body.length < 4096, `health is ${answer.body.length} bytes`);
      const health = answer.json() as {
        checks: Record<string, Array<{ status: string; output?: string }>>;
      };
      const [last] = health.checks['import:last'];
      assert.equal(last.status, 'warn');
      assert.match(last.output ?? '', /ndjson import failed: .*100,000 rejects in all/);
    } finally {
      await t.close();
      await store.close();
    }
  });
});
