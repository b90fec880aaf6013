/**
 * The dashboard's CSV files follow RFC 4180 (one header row, CRLF line ends, a field quoted when
 * it holds a comma, a quote or a line break, quotes doubled) and are named for the active filter.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvDocument } from '../../src/domain/csv-record.ts';
import { fileStem } from '../../web/src/csv.ts';

describe('CSV downloads', () => {
  it('quotes the fields RFC 4180 asks for and leaves raw numbers as they are', () => {
    const csv = csvDocument(
      ['faction', 'winRate', 'winRateLow'],
      [
        ['Orcs, Goblins', 0.5234, null],
        ['The "Host"', 1, 0.25],
        ['Two\nlines', Number.NaN, undefined],
      ],
    );
    assert.equal(
      csv,
      'faction,winRate,winRateLow\r\n"Orcs, Goblins",0.5234,\r\n"The ""Host""",1,0.25\r\n"Two\nlines",,\r\n',
    );
  });

  it('names the file for the page, the system and the active filter', () => {
    assert.equal(
      fileStem('meta', { system: 't9a', from: '2025-01-01', to: '2025-06-30' }),
      'muster-meta-t9a-2025-01-01_2025-06-30',
    );
    assert.equal(
      fileStem('matchups', {
        system: 't9a',
        rulesVersions: ['2.2'],
        online: false,
        tiers: ['major'],
      }),
      'muster-matchups-t9a-rules2.2-major-in-person',
    );
  });
});
