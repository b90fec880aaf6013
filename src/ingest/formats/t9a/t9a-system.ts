/**
 * The 9th Age as a game system: the 0..20 battle-point scale (summing to 20), its margin bands,
 * and the army codes used by the Ninth Age Data Project with their full names.
 */
import type { Faction, GameSystem } from '../../../domain/model.ts';

export const T9A_SYSTEM: GameSystem = {
  id: 't9a',
  name: 'The 9th Age',
  score: { min: 0, max: 20, total: 20 },
  marginBands: {
    decisive: { min: 18, max: 20 },
    normal: { min: 14, max: 17 },
    close: { min: 10, max: 13 },
  },
  // The source publishes no placings; T9A events rank by battle points summed over the games
  // (docs/statistics.md#standings says why and where this comes from).
  placementRule: { name: 'total battle points', rank: ['score'] },
  // T9A team tournaments score each game 20-0 and a team match the sum of its games, capped as
  // each event declares; teams rank by their total (docs/statistics.md#team-events: unconfirmed).
  teamRule: { name: 'total team battle points', rank: ['score'] },
};

const ARMIES: ReadonlyArray<[code: string, name: string]> = [
  ['BH', 'Beast Herds'],
  ['DE', 'Dread Elves'],
  ['DH', 'Dwarven Holds'],
  ['DL', 'Daemon Legions'],
  ['EoS', 'Empire of Sonnstahl'],
  ['HE', 'Highborn Elves'],
  ['ID', 'Infernal Dwarves'],
  ['KoE', 'Kingdom of Equitaine'],
  ['OK', 'Ogre Khans'],
  ['OnG', 'Orcs and Goblins'],
  ['SA', 'Saurian Ancients'],
  ['SE', 'Sylvan Elves'],
  ['UD', 'Undying Dynasties'],
  ['VC', 'Vampire Covenant'],
  ['VS', 'Vermin Swarm'],
  ['WDG', 'Warriors of the Dark Gods'],
];

export const T9A_FACTIONS: Faction[] = ARMIES.map(([id, name]) => ({
  id,
  system: T9A_SYSTEM.id,
  name,
  aliases: [id, name],
}));
