/**
 * An event of system `rl` (Roster Lists) whose four players' lists come from the roster fixtures
 * of issue 38 (docs/import-formats.md#list-builder-rosters): custom names and a list
 * configuration selection, force-level configuration choices, categories written as links, a
 * model entry taken several times. Imported with `--format roster`, as a user would.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { Store } from '../../src/store/store.ts';

const ROSTERS = join(import.meta.dirname, '..', 'fixtures', 'rosters');

/** The faction each player of ROSTER_EVENT plays: two, so that no game is a mirror. */
const FACTION: Record<string, string> = { kt: 'F', cl: 'F', fc: 'G', mc: 'G' };

/**
 * An event of system `rl` whose four players' lists come from the rosters of issue 38: kt (F)
 * beats fc (G) 12-8, mc (G) beats cl (F) 12-8.
 */
export const ROSTER_EVENT = {
  format: 'muster/v1',
  systems: [{ id: 'rl', name: 'Roster Lists', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'F', system: 'rl', name: 'Folk' },
    { id: 'G', system: 'rl', name: 'Guild' },
  ],
  events: [
    {
      id: 'rl-ev',
      system: 'rl',
      name: 'Lists',
      start: '2025-06-01',
      entries: Object.entries(FACTION).map(([player, faction]) => ({ player, faction })),
      games: [
        ['g1', 'kt', 'fc', 12],
        ['g2', 'cl', 'mc', 8],
      ].map(([id, a, b, score]) => ({
        id,
        round: 1,
        sides: [
          { player: a, faction: FACTION[a], score },
          { player: b, faction: FACTION[b], score: 20 - Number(score) },
        ],
      })),
    },
  ],
} as unknown as CanonicalDocument;

/** Rosters named for the players of ROSTER_EVENT, each file one of issue 38's shapes. */
const ROSTER_FILES: Array<[fixture: string, file: string]> = [
  ['kill-team-named.ros', 'kt.ros'], // custom names and a list configuration selection
  ['formation-choices.json', 'fc.json'], // force-level configuration choices
  ['category-links-201.ros', 'cl.ros'], // categories written as links
  ['model-counts.ros', 'mc.ros'], // a model entry taken several times
];

/** Imports ROSTER_EVENT and its rosters (`--format roster`) into `store`. */
export async function importRosterEvent(store: Store): Promise<void> {
  assert.deepEqual((await importCanonical(store, ROSTER_EVENT)).rejects, []);
  const dir = mkdtempSync(join(tmpdir(), 'muster-round-trip-rosters-'));
  try {
    for (const [fixture, file] of ROSTER_FILES) cpSync(join(ROSTERS, fixture), join(dir, file));
    const report = await importSources(store, [dir], { format: 'roster', event: 'rl-ev' });
    assert.deepEqual(report.rejects, []);
    assert.equal(report.counts.lists.imported, ROSTER_FILES.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
