/**
 * Rejects do not pile up in memory (docs/import-formats.md#rejects-and-replay,
 * docs/operations.md#limits): a streamed input of nothing but bad records is written batch by
 * batch while it is still being read, every reject is stored with the record it was, and the
 * report counts them all exactly while keeping only a sample of them.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { printReport } from '../../src/cli/print-report.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import { readRejects } from '../../src/store/read-rejects.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const CSV_HEADER = 'event_id,event_start,p1_id,p1_faction,p2_id,p2_faction';

/** Bad records of a format: a line of NDJSON that is no document, a CSV row without a faction. */
const BAD: Record<'ndjson' | 'csv', (i: number) => string> = {
  ndjson: (i) => (i % 2 === 0 ? `{"bad":${i}}` : `not json ${i}`),
  csv: (i) => `ev,2025-05-03,a${i},,b${i},VS`,
};

async function storedRejects(store: TestStore): Promise<number> {
  const row = await store.db
    .selectFrom('rejects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Standard input of `first` bad records, then (once the store holds a reject, or after a few
 * seconds) `rest` more; says whether rejects were stored while the input was still open.
 */
function slowInput(format: 'ndjson' | 'csv', store: TestStore, first: number, rest: number) {
  const seen = { whileReading: false };
  async function* lines() {
    if (format === 'csv') yield `${CSV_HEADER}\n`;
    for (let i = 0; i < first; i++) yield `${BAD[format](i)}\n`;
    for (let waited = 0; waited < 5_000 && !seen.whileReading; waited += 50) {
      seen.whileReading = (await storedRejects(store)) > 0;
      if (!seen.whileReading) await sleep(50);
    }
    for (let i = first; i < first + rest; i++) yield `${BAD[format](i)}\n`;
  }
  return { stdin: async () => Readable.from(lines()), seen };
}

function options(format: 'ndjson' | 'csv'): ImportSourcesOptions {
  return { format, ...(format === 'csv' ? { system: 'tow' } : {}) };
}

describe(`rejects are written as they come, and counted exactly (${TEST_BACKEND})`, () => {
  for (const format of ['ndjson', 'csv'] as const) {
    it(`${format}: an input of nothing but bad records is written batch by batch while it is read`, async () => {
      const store = await openTestStore();
      try {
        const input = slowInput(format, store, 1_000, 500);
        const report = await importSources(store, ['-'], {
          ...options(format),
          batchGames: 100,
          stdin: input.stdin,
        });
        assert.ok(input.seen.whileReading, 'rejects were stored before the input ended');
        assert.equal(report.rejectCount, 1_500);
        assert.equal(await storedRejects(store), 1_500);
        assert.ok(report.batches >= 15, `${report.batches} batches`);
      } finally {
        await store.close();
      }
    });

    it(`${format}: 25,000 bad records are all stored with their records and counted in the summary`, async () => {
      const store = await openTestStore();
      try {
        const count = 25_000;
        const body = Array.from({ length: count }, (_, i) => BAD[format](i)).join('\n');
        const text = format === 'csv' ? `${CSV_HEADER}\n${body}\n` : `${body}\n`;
        const report = await importSources(store, ['-'], {
          ...options(format),
          stdin: async () => text,
        });
        const stored = await readRejects(store.db, report.importId);
        assert.equal(stored.length, count);
        stored.forEach((r, i) => {
          const line = format === 'csv' ? i + 2 : i + 1;
          assert.equal(r.record, `line ${line}`);
          if (format === 'ndjson') {
            // The record as read: the document, or the line that is not JSON.
            assert.deepEqual(r.payload, i % 2 === 0 ? { bad: i } : `not json ${i}`);
          } else {
            assert.deepEqual(r.payload, {
              event_id: 'ev',
              event_start: '2025-05-03',
              p1_id: `a${i}`,
              p1_faction: '',
              p2_id: `b${i}`,
              p2_faction: 'VS',
            });
          }
        });

        assert.equal(report.rejectCount, count);
        assert.ok(report.rejects.length <= 1_000, 'the report keeps a sample only');
        const out: string[] = [];
        printReport(report, (l) => out.push(l), 50);
        const printed = out.join('\n');
        assert.match(printed, /25000 stored with their records/);
        const summary = await store.db
          .selectFrom('imports')
          .select('summary')
          .where('id', '=', report.importId)
          .executeTakeFirstOrThrow();
        assert.match(summary.summary ?? '', /25,000|25000/);
      } finally {
        await store.close();
      }
    });
  }
});
