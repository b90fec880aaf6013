/**
 * `muster export` keeps the player merges (docs/import-formats.md#player-merges): a store with a
 * merge that stands and one that was undone, exported and imported into an empty store on every
 * backend, answers the same and lists the same merges; importing the export again adds none; a
 * merge naming an unknown player is rejected alone, with the reason.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportStore } from '../../src/cli/export-store.ts';
import { main } from '../../src/cli/main.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { summaryLine } from '../../src/ingest/run-import.ts';
import { printReport } from '../../src/cli/print-report.ts';
import type { Store } from '../../src/store/store.ts';
import { mergeDocument } from '../support/merge-document.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

async function cli(store: TestStore, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { MUSTER_DATABASE_URL: store.url },
  });
  assert.equal(code, 0, `${argv.join(' ')}: ${err.join('\n')}`);
  return out;
}

async function exportText(store: Store): Promise<string> {
  const lines: string[] = [];
  await exportStore(store, (line) => void lines.push(line));
  return lines.join('\n') + '\n';
}

const importText = (store: Store, text: string) =>
  importSources(store, ['-'], { format: 'ndjson', stdin: async () => text });

const REQUESTS: Array<[string, object]> = [
  ['/api/rankings', { system: 'tt' }],
  ['/api/rankings', { system: 'tt', method: 'elo' }],
  ['/api/rankings', { system: 'tt', player: 'p-jose' }],
  ['/api/rankings', { system: 'tt', player: 'p-jose2' }],
  ['/api/events', { system: 'tt', event: 'e2' }],
];

/** The answers' data: meta holds the data version and the instant, which differ by store. */
async function answers(t: TestApp): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [url, body] of REQUESTS) {
    const { status, json } = await post(t, url, body);
    assert.equal(status, 200, JSON.stringify(json));
    out.push(json.data);
  }
  return out;
}

describe(`export and import keep the player merges (${TEST_BACKEND})`, () => {
  const stores: Array<{ store: TestStore; cleanup: () => void }> = [];
  let source: TestApp;
  let target: TestApp;
  let text: string;
  let imported: Awaited<ReturnType<typeof importText>>;
  before(async () => {
    stores.push(await openSharedTestStore(), await openSharedTestStore());
    const [from, into] = stores.map((s) => s.store);
    source = await buildTestApp({ store: from, seed: mergeDocument('p-jose2') });
    const first = (await cli(from, ['players', 'merge', 'p-jose', 'p-jose2', '--note', 'a'])).at(
      -1,
    )!;
    await cli(from, ['players', 'unmerge', first]);
    await cli(from, ['players', 'merge', 'p-jose', 'p-jose2', '--note', 'accents']);
    await source.snapshots.refresh();
    text = await exportText(from);
    imported = await importText(into, text);
    assert.deepEqual(imported.rejects, []);
    target = await buildTestApp({ store: into });
  });
  after(async () => {
    for (const t of [source, target]) await t?.close();
    for (const s of stores) {
      await s.store.close();
      s.cleanup();
    }
  });

  it('writes both merges, the undone one too, in the export', () => {
    const line = text.split('\n').find((l) => l.includes('"playerMerges"'));
    assert.ok(line, 'a line of merges');
    const merges = JSON.parse(line).playerMerges;
    assert.deepEqual(
      merges.map((m: { id: number; undoneAt: string | null }) => [m.id, m.undoneAt === null]),
      [
        [1, false],
        [2, true],
      ],
    );
  });

  it('counts the merges it imported in its report, and prints them', () => {
    assert.deepEqual(imported.counts.merges, {
      imported: 2,
      updated: 0,
      unchanged: 0,
      rejected: 0,
    });
    const lines: string[] = [];
    printReport(imported, (line) => lines.push(line));
    assert.ok(
      lines.some((l) => /^ {2}merges +2 imported +0 updated +0 unchanged +0 rejected$/.test(l)),
      lines.join('\n'),
    );
    assert.match(summaryLine(imported), /; merges 2 imported, 0 updated, 0 unchanged, 0 rejected/);
  });

  it('answers the rankings and the player pages of the merged player as the source does', async () => {
    const there = await answers(target);
    assert.deepEqual(there, await answers(source));
    const page = there[2] as { player: { merged: Array<{ id: string }> } };
    assert.deepEqual(
      page.player.merged.map((m) => m.id),
      ['p-jose2'],
    );
  });

  it('lists the same merges, ids and times included', async () => {
    const listed = await cli(target.store as TestStore, ['players', 'merges']);
    assert.equal(listed.length, 2);
    assert.deepEqual(listed, await cli(source.store as TestStore, ['players', 'merges']));
  });

  it('adds no merge and moves no data version when the export is imported again', async () => {
    const version = await target.store.dataVersion();
    const again = await importText(target.store, text);
    assert.deepEqual(again.rejects, []);
    assert.deepEqual(again.counts.merges, { imported: 0, updated: 0, unchanged: 2, rejected: 0 });
    assert.equal(await target.store.dataVersion(), version);
    assert.equal((await cli(target.store as TestStore, ['players', 'merges'])).length, 2);
  });

  it('gives a merge made after the import an id of its own', async () => {
    const into = target.store as TestStore;
    await cli(into, ['players', 'unmerge', '2']);
    const id = (await cli(into, ['players', 'merge', 'p-jose', 'p-jose2', '--note', 'again'])).at(
      -1,
    );
    assert.equal(id, '3');
  });

  it('rejects alone a merge naming an unknown player or an id already merged, saying why', async () => {
    const into = target.store as TestStore;
    const merge = (keep: string, other: string, undoneAt: string | null) => ({
      id: 9,
      keep,
      other,
      note: '',
      mergedAt: '2026-01-01T00:00:00.000Z',
      undoneAt,
      moved: { games: 3, entries: 0 },
    });
    const undone = '2026-01-02T00:00:00.000Z';
    const report = await importCanonical(into, {
      format: 'muster/v1',
      playerMerges: [
        merge('p-nobody', 'p-z', undone),
        merge('p-z', 'p-jose2', null),
        merge('p-y', 'p-z', undone),
      ],
    });
    assert.deepEqual(
      report.rejects.map((r) => [r.kind, r.field, r.reason]),
      [
        [
          'merge',
          '/keep',
          'unknown player "p-nobody": a merge names players the store or the batch holds',
        ],
        ['merge', '/other', 'p-jose2 is already merged into p-jose (merge 3)'],
      ],
    );
    assert.deepEqual(report.counts.merges, { imported: 1, updated: 0, unchanged: 0, rejected: 2 });
    const listed = (await cli(into, ['players', 'merges'])).map((l) => JSON.parse(l));
    assert.deepEqual(
      listed.map((m) => [m.id, m.keep, m.other]),
      [
        [1, 'p-jose', 'p-jose2'],
        [2, 'p-jose', 'p-jose2'],
        [3, 'p-jose', 'p-jose2'],
        [9, 'p-y', 'p-z'],
      ],
    );
  });
});
