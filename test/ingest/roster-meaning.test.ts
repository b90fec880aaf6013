/**
 * Rosters read as the list builder means them (docs/import-formats.md#list-builder-rosters), on
 * small rosters written for these tests in the builders' public schemas.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readRoster } from '../../src/ingest/formats/roster/roster-parse.ts';

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

  it('keeps force-level configuration as list choices, never as units', async () => {
    const { list } = await readRoster(join(ROSTERS, 'formation-choices.json'));
    assert.deepEqual(
      list.units.map((u) => [u.name, u.category, u.cost, u.models]),
      [
        ['Liberators', 'Infantry', 110, 5],
        // A top-level upgrade with models and points under it is a unit all the same.
        ['Vanguard Squad', 'Troops', 200, 5],
      ],
    );
    assert.deepEqual(list.configuration, [
      { name: 'Vanguard Wing', type: 'Battle Formation' },
      { name: 'Master the Paths', type: 'Battle Tactic Cards' },
      { name: 'Wrath of the Storm', type: 'Battle Tactic Cards' },
      { name: 'Allow Legends', type: 'Configuration' },
      { name: 'Lore of the Storm', type: 'Spell Lore' },
    ]);
    const kt = await readRoster(join(ROSTERS, 'kill-team-named.ros'));
    assert.ok(!kt.list.units.some((u) => u.name === 'List Configuration'));
    assert.deepEqual(kt.list.configuration, [
      { name: 'Arena Mission', type: 'List Configuration' },
    ]);
  });

  it('reads categories given as links, and a primary link by the category it references', async () => {
    const { list } = await readRoster(join(ROSTERS, 'category-links-201.ros'));
    assert.deepEqual(
      list.units.map((u) => [u.name, u.category, u.options]),
      [
        ['Captain', 'HQ', [{ name: 'Power Sword', type: 'Melee Weapon' }]],
        ['Tactical Squad', 'Troops', []],
      ],
    );
  });

  it('files a BattleScribe 2.01 unit under the force category its "New CategoryLink" targets', async () => {
    const roster = await readRoster(join(ROSTERS, 'new-categorylink-201.ros'));
    assert.deepEqual(
      roster.list.units.map((u) => [u.name, u.category, u.cost, u.models]),
      [
        ['Neurothrope', 'HQ', 70, 1],
        ['Termagants', 'Troops', 40, 10],
        // Its primary link targets no category of the force: the link's own name, said so.
        ['Ripper Swarms', 'New CategoryLink', 33, 3],
        ['Tyrannocyte', 'Dedicated Transport', 83, 1],
      ],
    );
    assert.deepEqual(roster.unresolvedLinks, ['New CategoryLink']);
    const named = await readRoster(join(ROSTERS, 'category-links-201.ros'));
    assert.deepEqual(named.unresolvedLinks, ['Melee Weapon']);
  });

  it('counts an Age of Sigmar unit size written as an upgrade named for the unit', async () => {
    const { list } = await readRoster(join(ROSTERS, 'size-upgrades-aos.ros'));
    assert.deepEqual(
      list.units.map((u) => [
        u.name,
        u.category,
        u.cost,
        u.models,
        (u.options ?? []).map((o) => o.name),
      ]),
      [
        // A hero with no model entry: its models are not known, never guessed.
        ['Grey Seer', 'Leader', 140, null, []],
        // "20 Clanrats" taken twice is 40 models and no option; the weapons stay options.
        ['Clanrats', 'Battleline', 200, 40, ['Rusty Spear and Clanrat Shield']],
        ['Clanrats', 'Battleline', 100, 20, []],
        ['Stormvermin', 'Other', 220, 20, []],
      ],
    );
  });

  it('counts models as the builder does: sized entries, nested totals, models written as upgrades', async () => {
    const { list } = await readRoster(join(ROSTERS, 'model-counts.ros'));
    assert.deepEqual(
      list.units.map((u) => [u.name, u.models, (u.options ?? []).map((o) => o.name)]),
      [
        // "10 Stormvermin" taken 4 times is 40 models.
        ['Stormvermin', 40, []],
        // A nested number is already the total within its unit: not multiplied by the unit's.
        ['Clanrats', 20, []],
        // Models written as upgrades (a model's profile), their wargear still an option.
        ['Strike Squad', 5, ['Storm Bolter']],
      ],
    );
  });

  it("counts an option carried by each of a unit's models once for the unit", async () => {
    const { list } = await readRoster(join(ROSTERS, 'option-per-model.ros'));
    assert.deepEqual(
      list.units.map((u) => [u.name, u.models, u.options]),
      [
        ['Plague Marines', 5, [{ name: 'Blight Grenades', type: 'Wargear' }]],
        ['Plague Marines', 5, [{ name: 'Blight Grenades', type: 'Wargear' }]],
      ],
    );
  });
});
