/**
 * `muster import --watch` (docs/operations.md#watching-a-folder): what is there is imported,
 * then a file that changes is imported again (the changed game updated, the unchanged one
 * untouched, a bad line rejected alone) and a file that appears is imported; SIGTERM stops the
 * command cleanly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchImports } from '../../src/cli/import-watch.ts';
import { importFormatNamed } from '../../src/ingest/formats/index.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const HEADER =
  'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score';
const dir = mkdtempSync(join(tmpdir(), 'muster-watch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe(`muster import --watch (${TEST_BACKEND})`, () => {
  it('imports a changed file again: the changed game updated, a bad line rejected alone, a new file imported', async () => {
    const store = await openTestStore();
    const folder = join(dir, 'results');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    const file = join(folder, 'gt.csv');
    writeFileSync(
      file,
      [HEADER, 'gt,GT,2025-06-07,1,a,Orks,72,b,Orks,55', 'gt,,,1,c,Orks,60,d,Orks,60'].join('\n'),
    );
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env: {} };
    const games = async () =>
      (await store.db.selectFrom('games').select('id').execute()).map((g) => g.id).sort();
    const done = watchImports(store, [folder], { format: 'csv', system: 'w40k' }, io, {
      spec: importFormatNamed('csv')!,
      maxRejects: 50,
      settleMs: 100,
      stop: stopped,
    });
    try {
      await until(async () => lines.some((l) => l.startsWith('watching')), 'the first import');
      assert.equal((await games()).length, 2);
      const version = await store.dataVersion();
      // One score changed, one line untouched, one bad line (no faction) and one new game.
      writeFileSync(
        file,
        [
          HEADER,
          'gt,GT,2025-06-07,1,a,Orks,80,b,Orks,55',
          'gt,,,1,c,Orks,60,d,Orks,60',
          'gt,,,2,a,,60,c,Orks,60',
          'gt,,,2,b,Orks,50,d,Orks,40',
        ].join('\n'),
      );
      await until(async () => (await store.dataVersion()) > version, 'the changed file');
      await until(async () => lines.some((l) => /rejected/.test(l)), 'the report');
      assert.equal((await games()).length, 3);
      const scores = await store.db
        .selectFrom('sides')
        .select(['game_id', 'score'])
        .where('player_id', '=', 'a')
        .where('side', '=', 0)
        .execute();
      assert.deepEqual(
        scores.map((s) => Number(s.score)),
        [80],
      );
      const rejects = await store.db.selectFrom('rejects').select(['record', 'reason']).execute();
      assert.equal(rejects.length, 1, JSON.stringify(rejects));
      assert.match(rejects[0].reason, /faction/);
      const second = await store.dataVersion();
      writeFileSync(join(folder, 'notes.txt'), 'not an import');
      writeFileSync(
        join(folder, 'later.csv'),
        [HEADER, 'later,Later,2025-07-01,1,e,Orks,70,f,Orks,30'].join('\n'),
      );
      await until(async () => (await games()).length === 4, 'the new file');
      assert.ok((await store.dataVersion()) > second);
    } finally {
      stop();
      assert.equal(await done, 1, 'a reject makes the exit code 1');
      await store.close();
    }
    assert.equal(lines.at(-1), 'stopped watching');
  });

  it('stops cleanly on SIGTERM', { skip: TEST_BACKEND !== 'sqlite' }, async () => {
    const folder = join(dir, 'signal');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'gt.csv'),
      [HEADER, 'gt,GT,2025-06-07,1,a,Orks,72,b,Orks,55'].join('\n'),
    );
    const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
    const child = spawn(
      process.execPath,
      [bin, 'import', '--watch', '--format', 'csv', '--system', 'w40k', folder],
      {
        env: { ...process.env, MUSTER_DATABASE_URL: join(dir, 'signal.db') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(async () => out.includes('watching'), 'the watch to start', 60_000);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, out);
    assert.match(out, /SIGTERM: stopping after the import under way/);
    assert.match(out, /stopped watching/);
  });
});
