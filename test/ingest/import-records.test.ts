/**
 * The imports table tells the truth (docs/operations.md, "Import records"): an import whose
 * process was killed is marked interrupted at the next import or start, an import of a file
 * that cannot be parsed is failed with its reason, and health's last import says so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import type { Store } from '../../src/store/store.ts';
import { buildTestApp } from '../support/test-app.ts';
import { TEST_BACKEND, openTestStore } from '../support/test-store.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-import-records-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A store another process can open too: a SQLite file, or a PostgreSQL test schema. */
async function sharedStore(): Promise<{ store: Store; url: string }> {
  if (TEST_BACKEND === 'sqlite') {
    const url = join(dir, `shared-${Date.now()}.db`);
    return { store: await openMigratedStore(url), url };
  }
  const store = await openTestStore();
  return { store, url: store.url };
}

async function importRows(store: Store) {
  return store.db
    .selectFrom('imports')
    .select(['id', 'status', 'summary', 'finished_at'])
    .orderBy('id')
    .execute();
}

describe(`import records (${TEST_BACKEND})`, () => {
  it('marks an import whose process was killed as interrupted at the next import', async () => {
    const { store, url } = await sharedStore();
    try {
      const child = spawn(process.execPath, [BIN, 'seed-demo'], {
        env: { ...process.env, MUSTER_DATABASE_URL: url, MUSTER_LOG_LEVEL: 'silent' },
        stdio: 'ignore',
      });
      const exited = new Promise((done) => child.on('exit', done));
      let running = false;
      for (let i = 0; i < 6_000 && !running; i += 1) {
        running = (await importRows(store)).some((r) => r.status === 'running');
        if (!running) await sleep(10);
      }
      assert.ok(running, 'the demo import started');
      child.kill('SIGKILL');
      await exited;
      assert.equal((await importRows(store))[0].status, 'running', 'killed mid-import');

      const path = join(dir, 'empty.json');
      writeFileSync(path, JSON.stringify({ format: 'muster/v1' }));
      await importSources(store, [path], { format: 'canonical' });
      const [killed] = await importRows(store);
      assert.equal(killed.status, 'interrupted');
      assert.ok(killed.finished_at !== null);
      assert.match(killed.summary ?? '', /did not finish/);
    } finally {
      await store.close();
    }
  });

  it('records an import of a file that cannot be parsed as failed with its reason, and health warns', async () => {
    const store = await openTestStore();
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"format": "muster/v1", "events": [');
    const report = await importSources(store, [path], { format: 'canonical' });
    assert.equal(report.status, 'failed');
    const [row] = await importRows(store);
    assert.equal(row.status, 'failed');
    assert.match(row.summary ?? '', /broken\.json.*malformed JSON/);

    const t = await buildTestApp({ store });
    try {
      const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json() as {
        checks: Record<string, Array<{ status: string; output?: string }>>;
      };
      const [last] = health.checks['import:last'];
      assert.equal(last.status, 'warn');
      assert.match(last.output ?? '', /failed.*malformed JSON/);
    } finally {
      await t.close();
      await store.close();
    }
  });
});
