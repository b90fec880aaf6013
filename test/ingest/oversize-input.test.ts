/**
 * Huge input fails fast (docs/import-formats.md#size-limits): a line or document over the record
 * limit, from a file or from standard input, in every format, stops the import as soon as the
 * limit is passed: nothing is written, the import is recorded `failed`, and the command prints
 * one line and exits non-zero. The inputs are generated as they are read (a stream, or a sparse
 * file), so no test writes gigabytes anywhere.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openSharedTestStore, openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const REPO = resolve(import.meta.dirname, '../..');
const MIB = 1024 * 1024;
const LIMIT = 1 * MIB;

/**
 * An endless-looking stream: `prefix`, then `total` bytes of `fill` (zeros by default), made as
 * they are pulled; `pulled()` says how much was read.
 */
function generated(total: number, prefix = '', fill = 0) {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, fill);
  const stream = new Readable({
    read() {
      if (sent === 0 && prefix !== '') {
        sent += prefix.length;
        this.push(Buffer.from(prefix));
        return;
      }
      if (sent >= total) return void this.push(null);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

/** A file of `size` bytes of zeros after `prefix`, sparse on disk. */
function sparseFile(path: string, size: number, prefix = ''): string {
  writeFileSync(path, prefix);
  truncateSync(path, size);
  return path;
}

async function snapshot(store: TestStore) {
  const count = async (table: 'systems' | 'factions' | 'events' | 'games' | 'rejects') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    dataVersion: await store.dataVersion(),
    systems: await count('systems'),
    factions: await count('factions'),
    events: await count('events'),
    games: await count('games'),
  };
}

describe(`input over the record limit fails fast (${TEST_BACKEND})`, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-oversize-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A good first record, so that "nothing written" means the batch before the bad one too. */
  const good = JSON.stringify(smallDocument());

  const cases: Array<{
    format: ImportSourcesOptions['format'];
    kind: 'stdin' | 'file';
    what: string;
    input: (dir: string) => { paths: string[]; stdin?: ReturnType<typeof generated> };
    message: RegExp;
    /** Leaves the record limit at its default (128 MiB). */
    defaultLimit?: boolean;
  }> = [
    {
      format: 'ndjson',
      kind: 'stdin',
      what: '64 MiB of zeros without a newline',
      input: () => ({ paths: ['-'], stdin: generated(64 * MIB) }),
      message: /^stdin: line 1 is larger than the record limit of 1 MiB/,
    },
    {
      format: 'ndjson',
      kind: 'stdin',
      what: 'a good line, then an endless one',
      input: () => ({ paths: ['-'], stdin: generated(64 * MIB, `${good}\n{"format":"`, 0x61) }),
      message: /^stdin: line 2 is larger than the record limit of 1 MiB/,
    },
    {
      format: 'ndjson',
      kind: 'file',
      what: 'a 64 MiB line of zeros',
      input: (d) => ({ paths: [sparseFile(join(d, 'zeros.ndjson'), 64 * MIB, `${good}\n`)] }),
      message: /zeros\.ndjson: line 2 is larger than the record limit of 1 MiB/,
    },
    {
      format: 'csv',
      kind: 'stdin',
      what: '64 MiB of zeros without a newline',
      input: () => ({
        paths: ['-'],
        stdin: generated(64 * MIB, 'event_id,event_start,p1_faction,p2_faction\n', 0x30),
      }),
      message: /^stdin: line 2 is larger than the record limit of 1 MiB/,
    },
    {
      format: 'csv',
      kind: 'stdin',
      what: '1 GiB of zeros under the default record limit, stopped by the row limit',
      input: () => ({
        paths: ['-'],
        stdin: generated(1024 * MIB, 'event_id,event_start,p1_faction,p2_faction\n'),
      }),
      message: /^stdin: line 2 is larger than the CSV row limit of 1 MiB \(a row is one game\)/,
      defaultLimit: true,
    },
    {
      format: 'csv',
      kind: 'file',
      what: 'a 64 MiB row',
      input: (d) => ({
        paths: [
          sparseFile(
            join(d, 'zeros.csv'),
            64 * MIB,
            'event_id,event_start,p1_faction,p2_faction\nev,2025-01-01,VS,"',
          ),
        ],
      }),
      message: /zeros\.csv: line 2 is larger than the record limit of 1 MiB/,
    },
    {
      format: 'canonical',
      kind: 'stdin',
      what: '64 MiB of zeros',
      input: () => ({ paths: ['-'], stdin: generated(64 * MIB) }),
      message: /^stdin: the document is larger than the record limit of 1 MiB/,
    },
    {
      format: 'canonical',
      kind: 'file',
      what: 'a 64 MiB document beside a good one',
      input: (d) => {
        const folder = join(d, 'canonical');
        mkdirSync(folder);
        writeFileSync(join(folder, 'a-good.json'), good);
        sparseFile(join(folder, 'b-huge.json'), 64 * MIB, good);
        return { paths: [folder] };
      },
      message: /b-huge\.json: the file \(67108864 bytes\) is larger than the record limit of 1 MiB/,
    },
    {
      format: 't9a',
      kind: 'file',
      what: 'a 64 MiB report',
      input: (d) => {
        const data = join(REPO, 'test', 'fixtures', 't9a', 'data');
        cpSync(data, join(d, 't9a'), { recursive: true });
        const tournament = join(d, 't9a', '674f70db608d175cc4aaf294');
        sparseFile(join(tournament, 'report_huge.json'), 64 * MIB, '{"id_match": "x"');
        return { paths: [join(d, 't9a')] };
      },
      message:
        /report_huge\.json: the file \(67108864 bytes\) is larger than the record limit of 1 MiB/,
    },
    {
      format: 'bcp',
      kind: 'file',
      what: 'a 64 MiB pairings.json',
      input: (d) => {
        const spring = join(REPO, 'test', 'fixtures', 'bcp', 'spring-gt');
        cpSync(spring, join(d, 'bcp'), { recursive: true });
        sparseFile(join(d, 'bcp', 'pairings.json'), 64 * MIB, '[');
        return { paths: [join(d, 'bcp')] };
      },
      message:
        /pairings\.json: the file \(67108864 bytes\) is larger than the record limit of 1 MiB/,
    },
  ];

  for (const c of cases) {
    it(`${c.format} from ${c.kind === 'stdin' ? 'standard input' : 'a file'}: ${c.what} fails at the limit, writes nothing and is recorded failed`, async () => {
      const store = await openTestStore();
      const d = mkdtempSync(join(dir, `${c.format}-`));
      try {
        await importCanonical(store, {
          format: 'muster/v1',
          systems: smallDocument().systems,
          factions: [...smallDocument().factions!, { id: 'EO', system: 'tow', name: 'Ember Orcs' }],
        });
        const before = await snapshot(store);
        const { paths, stdin } = c.input(d);
        await assert.rejects(
          importSources(store, paths, {
            format: c.format,
            ...(c.defaultLimit ? {} : { maxRecordBytes: LIMIT }),
            ...(stdin ? { stdin: async () => stdin.stream } : {}),
          }),
          (error: Error) => {
            assert.equal(error.name, 'InputTooLargeError');
            assert.match(error.message, c.message);
            if (!c.defaultLimit) assert.match(error.message, /--max-record-mb/);
            return true;
          },
        );
        if (stdin)
          assert.ok(stdin.pulled() < 4 * LIMIT, `read ${stdin.pulled()} bytes, not all of it`);
        assert.deepEqual(await snapshot(store), before, 'nothing written');
        const record = await store.db
          .selectFrom('imports')
          .select(['status', 'summary'])
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        assert.equal(record.status, 'failed');
        assert.match(record.summary ?? '', c.message);
      } finally {
        await store.close();
      }
    });
  }

  it('muster import --format ndjson - with 256 MiB of zeros on standard input exits 1 with one line, no stack trace, the import failed', async () => {
    const { store, cleanup } = await openSharedTestStore();
    try {
      const child = spawn(
        process.execPath,
        [join(REPO, 'bin/muster.js'), 'import', '--format', 'ndjson', '--max-record-mb', '2', '-'],
        {
          env: { ...process.env, MUSTER_DATABASE_URL: store.url },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      const source = generated(256 * MIB);
      source.stream.pipe(child.stdin);
      child.stdin.on('error', () => undefined); // the import stops reading: EPIPE is expected
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      child.stdout.resume();
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      source.stream.destroy();
      assert.equal(code, 1, stderr);
      assert.equal(
        stderr.trim(),
        'muster import: stdin: line 1 is larger than the record limit of 2 MiB (raise it with --max-record-mb)',
      );
      assert.ok(source.pulled() < 64 * MIB, `read ${source.pulled()} bytes of 256 MiB`);
      const record = await store.db
        .selectFrom('imports')
        .select(['status'])
        .executeTakeFirstOrThrow();
      assert.equal(record.status, 'failed');
    } finally {
      await store.close();
      cleanup();
    }
  });
});
