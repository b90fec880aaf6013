/**
 * An import folder's entries that cannot be used are rejected alone (docs/import-formats.md#folders):
 * a symbolic link that loops, one that points at nothing, a link back to a folder already read,
 * and a FIFO where a file is wanted (the tests run as root, whom a mode-000 file does not stop,
 * so a FIFO stands for an entry that cannot be read: opening it would wait for a writer forever).
 * Each is a file reject naming it, and the valid files beside it import, in every format that
 * takes a folder, on both backends. One `ELOOP` used to fail the whole import.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import { writeBcpExport } from '../support/bcp-writer.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

const REFERENCE = {
  format: 'muster/v1' as const,
  systems: [{ id: 'tow', name: 'Test of War', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'VS', system: 'tow', name: 'Vermin Swarm' },
    { id: 'HE', system: 'tow', name: 'Highborn Elves' },
  ],
};

function eventDocument(id: string): CanonicalDocument {
  return {
    ...REFERENCE,
    players: [{ id: `${id}-p1` }, { id: `${id}-p2` }],
    events: [
      {
        id,
        system: 'tow',
        name: `Event ${id}`,
        start: '2025-05-03',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        games: [
          {
            id: `${id}-g1`,
            sides: [
              { player: `${id}-p1`, faction: 'VS', score: 12 },
              { player: `${id}-p2`, faction: 'HE', score: 8 },
            ],
          },
        ],
      },
    ],
  };
}

const REASONS = {
  loop: /^a symbolic link that loops \(ELOOP\): skipped$/,
  dangling: /^a symbolic link to nothing \(dangling\): skipped$/,
  back: /^a link to a folder already read \(a loop\)/,
  fifo: /^(cannot read: )?a FIFO, not a file/,
};

/**
 * Puts the hostile entries into `dir`: a link to itself, a link to nothing and a folder holding a
 * link back to `dir`, named with `ext`; returns the entry paths with the reason each must get.
 */
function hostile(dir: string, ext: string): Array<[string, RegExp]> {
  symlinkSync(`loop${ext}`, join(dir, `loop${ext}`));
  symlinkSync('nowhere', join(dir, `gone${ext}`));
  mkdirSync(join(dir, 'sub'));
  symlinkSync('..', join(dir, 'sub', 'up'));
  return [
    [join(dir, `loop${ext}`), REASONS.loop],
    [join(dir, `gone${ext}`), REASONS.dangling],
    [join(dir, 'sub', 'up'), REASONS.back],
  ];
}

function fifo(path: string): [string, RegExp] {
  execFileSync('mkfifo', [path]);
  return [path, REASONS.fifo];
}

const eventIds = async (store: TestStore) =>
  (await store.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

interface Case {
  format: ImportSourcesOptions['format'];
  /** Writes valid input and hostile entries into `dir`; returns the paths and the bad entries. */
  write: (
    store: TestStore,
    dir: string,
  ) => Promise<{
    paths: string[];
    options?: Partial<ImportSourcesOptions>;
    bad: Array<[string, RegExp]>;
  }>;
  stored: (store: TestStore) => Promise<unknown>;
  expected: unknown;
}

function fileCase(format: 'canonical' | 'ndjson' | 'csv', ext: string): Case {
  return {
    format,
    write: async (store, dir) => {
      await importCanonical(store, REFERENCE);
      for (const id of ['ev-a', 'ev-c']) {
        const text =
          format === 'csv'
            ? `event_id,event_name,event_start,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score\n${id},Event ${id},2025-05-03,${id}-p1,VS,12,${id}-p2,HE,8\n`
            : JSON.stringify(eventDocument(id));
        writeFileSync(join(dir, `${id}${ext}`), text);
      }
      const bad = [...hostile(dir, ext), fifo(join(dir, `fifo${ext}`))];
      return { paths: [dir], options: format === 'csv' ? { system: 'tow' } : {}, bad };
    },
    stored: eventIds,
    expected: ['ev-a', 'ev-c'],
  };
}

const CASES: Case[] = [
  fileCase('canonical', '.json'),
  fileCase('ndjson', '.ndjson'),
  fileCase('csv', '.csv'),
  {
    format: 'bcp',
    write: async (store, dir) => {
      await importCanonical(store, REFERENCE);
      for (const id of ['ev-a', 'ev-b', 'ev-c']) {
        const doc = eventDocument(id);
        writeBcpExport(doc, (doc.events ?? [])[0], join(dir, id), { rosters: false });
      }
      // An export folder whose pairings cannot be read: that event alone is lost.
      rmSync(join(dir, 'ev-b', 'pairings.json'));
      const bad = [...hostile(dir, ''), fifo(join(dir, 'ev-b', 'pairings.json'))];
      return { paths: [dir], bad };
    },
    stored: eventIds,
    expected: ['ev-a', 'ev-c'],
  },
  {
    format: 't9a',
    write: async (_store, dir) => {
      const data = join(FIXTURES, 't9a', 'data');
      const tournaments = readdirSync(data).sort().slice(0, 2);
      for (const t of tournaments) cpSync(join(data, t), join(dir, t), { recursive: true });
      const bad = [...hostile(dir, ''), fifo(join(dir, tournaments[0], 'report_fifo.json'))];
      return { paths: [dir], bad };
    },
    stored: async (store) => (await eventIds(store)).length,
    expected: 2,
  },
  {
    format: 'roster',
    write: async (store, dir) => {
      await importCanonical(store, REFERENCE);
      const spring = join(FIXTURES, 'bcp', 'spring-gt');
      const copy = join(dir, 'spring-gt');
      cpSync(spring, copy, { recursive: true });
      rmSync(join(copy, 'rosters'), { recursive: true });
      assert.equal((await importSources(store, [copy], { format: 'bcp' })).status, 'imported');
      const rosters = join(dir, 'rosters');
      mkdirSync(rosters);
      for (const f of ['Ada_Lovelace.ros', 'cy-list.json', 'rosters.csv', 'u2.rosz'])
        cpSync(join(spring, 'rosters', f), join(rosters, f));
      const bad = [...hostile(rosters, '.ros'), fifo(join(rosters, 'fifo.rosz'))];
      return { paths: [rosters], options: { event: 'spring-gt' }, bad };
    },
    stored: async (store) =>
      (
        await store.db
          .selectFrom('entries')
          .select('player_id')
          .where('list_id', 'is not', null)
          .orderBy('player_id')
          .execute()
      ).map((r) => r.player_id),
    expected: ['u1', 'u2', 'u3'],
  },
];

/** Lets a reader stuck opening a FIFO go (the code before this change opened them). */
function releaseFifos(bad: Array<[string, RegExp]>): void {
  for (const [path, reason] of bad) {
    if (reason !== REASONS.fifo) continue;
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it, which is the point.
    }
  }
}

describe(`entries of an import folder that cannot be used are rejected alone (${TEST_BACKEND})`, () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'muster-folders-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const c of CASES) {
    it(`${c.format}: a link loop, a dangling link, a link back up and a FIFO are file rejects, and the files beside them import`, async () => {
      const store = await openTestStore();
      const dir = mkdtempSync(join(root, `${c.format}-`));
      let bad: Array<[string, RegExp]> = [];
      try {
        const input = await c.write(store, dir);
        bad = input.bad;
        const report = await importSources(store, input.paths, {
          format: c.format,
          ...input.options,
        });
        const rejects = new Map(report.rejects.map((r) => [r.source, r]));
        for (const [path, reason] of bad) {
          const reject = rejects.get(path);
          assert.ok(reject, `${path} is rejected: ${JSON.stringify(report.rejects, null, 1)}`);
          assert.match(reject.reason, reason);
          if (reason !== REASONS.fifo || c.format !== 'bcp') assert.equal(reject.kind, 'file');
        }
        assert.equal(report.status, 'imported');
        assert.deepEqual(await c.stored(store), c.expected);
      } finally {
        releaseFifos(bad);
        await store.close();
      }
    });
  }
});
