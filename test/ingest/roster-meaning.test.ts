/**
 * Rosters read as the list builder means them (docs/import-formats.md#list-builder-rosters), on
 * small rosters written for these tests in the builders' public schemas.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readRoster } from '../../src/ingest/roster-parse.ts';

const ROSTERS = join(import.meta.dirname, '..', 'fixtures', 'rosters');

describe('roster meaning', () => {
  it('names a unit by its selection, never by the custom name its owner gave it', async () => {
    const { list } = await readRoster(join(ROSTERS, 'kill-team-named.ros'));
    const names = list.units.map((u) => u.name);
    assert.ok(names.includes('Neophyte Leader'), names.join(', '));
    assert.equal(names.filter((n) => n === 'Neophyte Hybrid').length, 2);
    assert.ok(!names.includes('Yorl Krauss') && !names.includes('Basc Thrace'));
    const leader = list.units.find((u) => u.name === 'Neophyte Leader');
    assert.deepEqual(leader?.options, [{ name: 'Autopistol', type: 'Wargear' }]);
  });
});
