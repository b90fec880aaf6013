/**
 * What an import leaves behind (docs/import-formats.md#one-transaction,
 * docs/operations.md#import-records): an import that reads nothing changes nothing, in every
 * format; the record of an import says what its data says, even when the process dies right
 * after the data's commit; and importing the same files again keeps each reject once, with the
 * newest import.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { markInterruptedImports } from '../../src/ingest/import-records.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openSharedTestStore, openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const REPO = resolve(import.meta.dirname, '../..');

/** What an import that changed nothing must leave as it was. */
async function snapshot(store: TestStore) {
  const ids = async (table: 'systems' | 'factions' | 'events' | 'games' | 'players') =>
    (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
  return {
    dataVersion: await store.dataVersion(),
    systems: await ids('systems'),
    factions: await ids('factions'),
    events: await ids('events'),
    games: await ids('games'),
    players: await ids('players'),
  };
}

describe(`an import that reads nothing changes nothing (${TEST_BACKEND})`, () => {
  let dir: string;
  let emptyDir: string;
  let aFile: string;
  let emptyFile: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-nothing-'));
    emptyDir = join(dir, 'empty');
    mkdirSync(emptyDir);
    aFile = join(dir, 'notes.txt');
    writeFileSync(aFile, 'not a folder of anything\n');
    emptyFile = join(dir, 'empty.txt');
    writeFileSync(emptyFile, '');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const formats: Array<ImportSourcesOptions['format']> = [
    'canonical',
    'ndjson',
    'csv',
    't9a',
    'bcp',
    'roster',
  ];
  const inputs: Array<[string, () => string]> = [
    ['a path that does not exist (ENOENT)', () => join(dir, 'no-such-path')],
    ['an empty folder', () => emptyDir],
    ['a file where a folder is expected', () => aFile],
    ['an empty file', () => emptyFile],
  ];
  for (const format of formats) {
    for (const [what, path] of inputs) {
      it(`${format}: ${what} fails, adds no system or faction and leaves the data version`, async () => {
        const store = await openTestStore();
        try {
          // A one-system store, as an organiser's is: a second system would make every
          // request without `system` a 400.
          assert.deepEqual((await importCanonical(store, smallDocument())).rejects, []);
          const before = await snapshot(store);
          const report = await importSources(store, [path()], {
            format,
            ...(format === 'roster' ? { event: 'ev1' } : {}),
          });
          assert.ok(report.rejects.length > 0, 'the import says why');
          // A file is a valid input for the formats that read files: it only has to be
          // readable; the others must fail.
          if (!(what.startsWith('a file where') && ['canonical', 'ndjson', 'csv'].includes(format)))
            assert.equal(report.status, 'failed', JSON.stringify(report.rejects));
          assert.deepEqual(await snapshot(store), before);
          const record = await store.db
            .selectFrom('imports')
            .select(['status'])
            .where('id', '=', report.importId)
            .executeTakeFirstOrThrow();
          assert.equal(record.status, report.status);
        } finally {
          await store.close();
        }
      });
    }
  }
});

describe(`the import record and the rejects (${TEST_BACKEND})`, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-outcome-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records the outcome with the data: killed with -9 right after the commit, the import is still recorded imported', async () => {
    const { store, cleanup } = await openSharedTestStore();
    try {
      const path = join(dir, 'events.ndjson');
      writeFileSync(path, `${JSON.stringify(smallDocument())}\n`);
      // The child dies (SIGKILL, no clean-up at all) at the first moment after the batch's
      // transaction has committed: the progress callback.
      const script = `
        import { importSources } from ${JSON.stringify(join(REPO, 'src/ingest/import-sources.ts'))};
        import { openMigratedStore } from ${JSON.stringify(join(REPO, 'src/store/store.ts'))};
        const store = await openMigratedStore(${JSON.stringify(store.url)});
        await importSources(store, [${JSON.stringify(path)}], {
          format: 'ndjson',
          onBatch: () => process.kill(process.pid, 'SIGKILL'),
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
      const games = await store.db.selectFrom('games').select('id').execute();
      assert.equal(games.length, 3, 'the data landed');
      // The next import or start looks for imports whose process died.
      await markInterruptedImports(store);
      const record = await store.db
        .selectFrom('imports')
        .select(['status', 'summary', 'finished_at'])
        .executeTakeFirstOrThrow();
      assert.equal(record.status, 'imported', record.summary ?? '');
      assert.match(record.summary ?? '', /games 3 imported/);
      assert.notEqual(record.finished_at, null);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('keeps a failure after the commit from rewriting the record: the import stays imported', async () => {
    const store = await openTestStore();
    try {
      const path = join(dir, 'after-commit.ndjson');
      writeFileSync(path, `${JSON.stringify(smallDocument())}\n`);
      await assert.rejects(
        importSources(store, [path], {
          format: 'ndjson',
          onBatch: () => {
            throw new Error('lost the terminal');
          },
        }),
        /lost the terminal/,
      );
      const record = await store.db
        .selectFrom('imports')
        .select(['status', 'summary'])
        .executeTakeFirstOrThrow();
      assert.equal(record.status, 'imported', record.summary ?? '');
    } finally {
      await store.close();
    }
  });

  it('keeps each reject once when the same files are imported again, listed with the newest import', async () => {
    const databaseUrl =
      TEST_BACKEND === 'sqlite'
        ? join(dir, 'rejects.db')
        : await openTestStore().then(async (s) => (await s.close(), s.url));
    const doc = smallDocument();
    doc.events[0].games!.push(
      {
        id: 'bad-1',
        sides: [
          { player: 'p1', faction: 'VS', score: 25 },
          { player: 'p2', faction: 'HE', score: -5 },
        ],
      },
      {
        id: 'bad-2',
        sides: [
          { player: 'p1', faction: 'Nobody', score: 10 },
          { player: 'p2', faction: 'HE', score: 10 },
        ],
      },
    );
    const path = join(dir, 'with-rejects.json');
    writeFileSync(path, JSON.stringify(doc));
    const cli = async (argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(argv, {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        env: { MUSTER_DATABASE_URL: databaseUrl },
      });
      return { code, out: out.filter((l) => l !== ''), err: err.join('\n') };
    };
    const rejectLines = async (argv: string[] = []) =>
      (await cli(['rejects', ...argv])).out.map(
        (l) => JSON.parse(l) as { importId: number; record: string },
      );

    assert.equal((await cli(['import', path])).code, 1);
    const first = await rejectLines();
    assert.deepEqual(first.map((r) => r.record).sort(), ['game bad-1', 'game bad-2']);
    assert.equal((await cli(['import', path])).code, 1);
    const second = await rejectLines();
    assert.equal(second.length, 2, 'the same two rejects, not four');
    assert.ok(
      second.every((r) => r.importId > first[0].importId),
      'listed with the newest import',
    );
    const old = await cli(['rejects', '--import', String(first[0].importId)]);
    assert.deepEqual(old.out, []);
    assert.match(old.err, new RegExp(`taken over by import ${second[0].importId}`));

    const store = await openMigratedStore(databaseUrl);
    try {
      const stored = await store.db.selectFrom('rejects').select('import_id').execute();
      assert.equal(stored.length, 2, 'the rejects table holds each reject once');
    } finally {
      await store.close();
    }

    // Fixed: the newest import rejected nothing, and the listing says so.
    writeFileSync(path, JSON.stringify(smallDocument()));
    assert.equal((await cli(['import', path])).code, 0);
    const fixed = await cli(['rejects']);
    assert.deepEqual(fixed.out, []);
    assert.match(fixed.err, /import \d+ rejected nothing/);
  });
});
