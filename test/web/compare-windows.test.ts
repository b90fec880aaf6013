/**
 * The before/after view's quick choices (docs/operations.md#before-after): a rules update is a
 * date cut at the first event of its version, as GET /api/filters dates each version.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWindows, rulesUpdates } from '../../web/src/compare-windows.ts';
import type { SystemOptions } from '../../web/src/types.ts';

const version = (value: string, from: string, to: string) => ({
  value,
  from,
  to,
  events: 1,
  games: 10,
});

function system(
  rulesVersions: SystemOptions['rulesVersions'],
  from = '2024-01-06',
  to = '2025-11-01',
): SystemOptions {
  return {
    id: 's',
    name: 'S',
    demo: false,
    events: 3,
    games: 30,
    from,
    to,
    factions: [],
    players: { total: 0, named: 0 },
    participants: { min: null, max: null, unknownEvents: 0, atLeast: [] },
    formats: [],
    tiers: [],
    countries: [],
    rulesVersions,
    online: [],
  };
}

describe('before/after a rules update', () => {
  const versions = [
    // Listed most games first, as the API does; 2.10 came after 2.9.
    version('2.10', '2025-06-07', '2025-11-01'),
    version('2.9', '2024-01-06', '2025-06-14'),
    version('2.9.1', '2024-09-01', '2025-05-01'),
  ];

  it('cuts at the first event of each version after the first, oldest first', () => {
    const updates = rulesUpdates(system(versions));
    assert.deepEqual(
      updates.map((u) => u.label),
      ['before/after 2.9.1 (from 2024-09-01)', 'before/after 2.10 (from 2025-06-07)'],
    );
    // Each window is one rules period by date, whatever version an event recorded.
    assert.deepEqual(updates[0].windows, {
      before: { from: '2024-01-06', to: '2024-08-31', rules: '' },
      after: { from: '2024-09-01', to: '2025-06-06', rules: '' },
    });
    assert.deepEqual(updates[1].windows, {
      before: { from: '2024-09-01', to: '2025-06-06', rules: '' },
      after: { from: '2025-06-07', to: '2025-11-01', rules: '' },
    });
  });

  it('shows the latest update by default', () => {
    assert.deepEqual(defaultWindows(system(versions)), rulesUpdates(system(versions))[1].windows);
  });

  it('offers no cut without a version starting after the data does', () => {
    const one = system([version('1.0', '2024-01-06', '2025-11-01')]);
    assert.deepEqual(rulesUpdates(one), []);
    // Then the date range cut in half, the halves meeting without a gap.
    assert.deepEqual(defaultWindows(one), {
      before: { from: '2024-01-06', to: '2024-12-02', rules: '' },
      after: { from: '2024-12-03', to: '2025-11-01', rules: '' },
    });
    const sameDay = system([
      version('1.0', '2024-01-06', '2025-11-01'),
      version('1.1', '2024-01-06', '2025-11-01'),
    ]);
    assert.deepEqual(rulesUpdates(sameDay), []);
  });
});
