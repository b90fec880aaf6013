/**
 * The fixed content of the demo game system: armies with their units, magic items, scenarios,
 * places and name parts. Everything is invented for the demo ("Demo Fantasy Battles"); only the
 * city coordinates are real so that distance searches behave as they would on real data.
 */
import type { MarginBands, ScenarioKind } from '../../domain/model.ts';

export const DEMO_SYSTEM_ID = 'demo-fantasy';
export const DEMO_SYSTEM_NAME = 'Demo Fantasy Battles (generated demo data)';
export const DEMO_MARGIN_BANDS: MarginBands = {
  decisive: { min: 18, max: 20 },
  normal: { min: 14, max: 17 },
  close: { min: 10, max: 13 },
};

export interface DemoArmy {
  id: string;
  name: string;
  aliases: string[];
  /** Relative share of players who main it. */
  popularity: number;
  characters: string[];
  /** Characters that cast spells and so choose a Path. */
  wizards: string[];
  core: string[];
  special: string[];
  rare: string[];
  mounts: string[];
  /** Items only this army can take. */
  items: string[];
  subfactions?: { id: string; name: string; aliases: string[] }[];
}

export const DEMO_ARMIES: readonly DemoArmy[] = [
  {
    id: 'se',
    name: 'Sunspire Elves',
    aliases: ['SE', 'Sun Elves', 'Sunspire'],
    popularity: 9,
    characters: ['Sunspire Prince', 'Loremaster of the Spire', 'Sunspire Captain'],
    wizards: ['Loremaster of the Spire'],
    core: ['Spire Spearmen', 'Sunbow Archers', 'Citizen Levy'],
    special: ['Lion Guard', 'Dawn Knights', 'Sea Wardens', 'Phoenix Chariot'],
    rare: ['Eagle Bolt Thrower', 'Sun Phoenix'],
    mounts: ['Elven Steed', 'Sun Phoenix', 'Great Eagle'],
    items: ['Shard of the Spire', 'Dawnstar Banner', 'Mantle of Radiance'],
  },
  {
    id: 'ws',
    name: 'Wildwood Sylvans',
    aliases: ['WS', 'Sylvans', 'Wildwood'],
    popularity: 6,
    characters: ['Wildwood Lord', 'Grove Seer', 'Thornblade Captain'],
    wizards: ['Grove Seer'],
    core: ['Glade Archers', 'Wildwood Spears', 'Sylvan Scouts'],
    special: ['Bladedancers', 'Antler Riders', 'Thorn Wardens', 'Falcon Riders'],
    rare: ['Treeman Ancient', 'Forest Spirits'],
    mounts: ['Wild Elk', 'Great Stag', 'Forest Dragon'],
    items: ['Heartwood Bow', 'Seed of Renewal', 'Cloak of Leaves'],
  },
  {
    id: 'nc',
    name: 'Nightglass Covenant',
    aliases: ['NC', 'Nightglass', 'Covenant Elves'],
    popularity: 7,
    characters: ['Nightglass Archon', 'Shade Witch', 'Blood Priestess'],
    wizards: ['Shade Witch'],
    core: ['Covenant Spears', 'Repeater Crossbows', 'Corsair Raiders'],
    special: ['Obsidian Guard', 'Lizard Knights', 'Shadow Stalkers', 'Razor Chariot'],
    rare: ['Hydra of the Deep', 'Bolt Repeater'],
    mounts: ['Cold Lizard', 'Dark Pegasus', 'Black Dragon'],
    items: ['Nightglass Dagger', 'Veil of Shadows', 'Chalice of Blood'],
  },
  {
    id: 'ih',
    name: 'Ironhold Dwarves',
    aliases: ['IH', 'Ironhold', 'Iron Dwarves'],
    popularity: 10,
    characters: ['Ironhold Thane', 'Rune Smith', 'Ironhold Captain'],
    wizards: ['Rune Smith'],
    core: ['Clan Warriors', 'Hold Crossbows', 'Greybeard Veterans'],
    special: ['Hammer Guard', 'Deep Miners', 'Iron Rangers', 'Gyro Flyer'],
    rare: ['Stone Thrower', 'Flame Cannon'],
    mounts: ['Shield Bearers', 'War Anvil', 'Battle Throne'],
    items: ['Rune of Stone', 'Ancestor Hammer', 'Oath Banner'],
  },
  {
    id: 'ka',
    name: 'Kingdoms of Aurelia',
    aliases: ['KA', 'Aurelia', 'Aurelian Knights'],
    popularity: 8,
    characters: ['Aurelian Duke', 'Damsel of the Lake', 'Paladin'],
    wizards: ['Damsel of the Lake'],
    core: ['Knights of the Realm', 'Peasant Bowmen', 'Men-at-Arms'],
    special: ['Questing Knights', 'Pegasus Knights', 'Pilgrim Band', 'Mounted Yeomen'],
    rare: ['Field Trebuchet', 'Grail Guardians'],
    mounts: ['Barded Warhorse', 'Royal Pegasus', 'Hippogriff'],
    items: ['Lance of the Lake', 'Grail Relic', 'Banner of the Realm'],
  },
  {
    id: 'fc',
    name: 'Free Cantons',
    aliases: ['FC', 'Cantons', 'Cantonal League'],
    popularity: 11,
    characters: ['Cantonal Marshal', 'Battle Wizard', 'Warrior Priest'],
    wizards: ['Battle Wizard'],
    core: ['State Halberdiers', 'Handgunners', 'Free Company'],
    special: ['Order Knights', 'Greatswords', 'Outriders', 'Steam Wagon'],
    rare: ['Great Cannon', 'Volley Gun'],
    mounts: ['Warhorse', 'Griffon', 'War Altar'],
    items: ['Cantonal Charter', 'Runefang Replica', 'Steam Pistol'],
  },
  {
    id: 'gl',
    name: 'Grave Lords',
    aliases: ['GL', 'Grave Lord', 'Vampire Courts'],
    popularity: 10,
    characters: ['Vampire Count', 'Necromancer', 'Wight Champion'],
    wizards: ['Necromancer', 'Vampire Count'],
    core: ['Skeleton Warriors', 'Zombie Throng', 'Ghoul Pack'],
    special: ['Grave Guard', 'Black Riders', 'Dire Wolves', 'Bat Swarms'],
    rare: ['Corpse Cart', 'Bone Colossus'],
    mounts: ['Nightmare', 'Abyssal Terror', 'Zombie Dragon'],
    items: ['Crimson Chalice', 'Shroud of Night', 'Grave Banner'],
    subfactions: [
      {
        id: 'gl-bl',
        name: 'Grave Lords: Bone Legion',
        aliases: ['Bone Legion', 'GL Bone Legion'],
      },
    ],
  },
  {
    id: 'ds',
    name: 'Dune Sovereigns',
    aliases: ['DS', 'Dune Kings', 'Sovereigns'],
    popularity: 5,
    characters: ['Dune King', 'Hierophant', 'Tomb Herald'],
    wizards: ['Hierophant'],
    core: ['Skeleton Spears', 'Skeleton Bowmen', 'Dune Chariots'],
    special: ['Tomb Guard', 'Sand Stalkers', 'Necropolis Knights', 'Carrion Swarm'],
    rare: ['Bone Catapult', 'Great Sphinx'],
    mounts: ['Skeletal Steed', 'War Sphinx', 'Dune Chariot'],
    items: ['Scarab Amulet', 'Sunblade of Ages', 'Standard of the Sands'],
  },
  {
    id: 'eo',
    name: 'Ember Orcs',
    aliases: ['EO', 'Orcs', 'Ember Orc Warband'],
    popularity: 11,
    characters: ['Orc Warlord', 'Ember Shaman', 'Big Boss'],
    wizards: ['Ember Shaman'],
    core: ['Orc Boyz', 'Goblin Mob', 'Wolf Riders'],
    special: ['Iron Orcs', 'Boar Riders', 'Troll Pack', 'Snarling Chariot'],
    rare: ['Rock Lobber', 'Hill Giant'],
    mounts: ['War Boar', 'Wyvern', 'Giant Wolf'],
    items: ['Cleaver of Ruin', 'Ember Totem', 'Waaagh Banner'],
    subfactions: [
      {
        id: 'eo-gh',
        name: 'Ember Orcs: Goblin Horde',
        aliases: ['Goblin Horde', 'EO Goblins'],
      },
    ],
  },
  {
    id: 'mo',
    name: 'Mountain Maw Ogres',
    aliases: ['MO', 'Ogres', 'Mountain Maw'],
    popularity: 6,
    characters: ['Maw Tyrant', 'Butcher', 'Bruiser'],
    wizards: ['Butcher'],
    core: ['Ogre Bulls', 'Gnoblar Rabble', 'Ironguts'],
    special: ['Leadbelchers', 'Mournfang Riders', 'Yhetee Pack', 'Sabretusks'],
    rare: ['Thundertusk', 'Gorger Pack'],
    mounts: ['Stonehorn', 'Mournfang', 'Great Sled'],
    items: ['Maw Fang', 'Gut Plate', 'Cauldron Banner'],
  },
  {
    id: 'ts',
    name: 'Tunnel Swarm',
    aliases: ['TS', 'Ratkin', 'Tunnel Rats'],
    popularity: 8,
    characters: ['Swarm Warlord', 'Plague Seer', 'Warlock Engineer'],
    wizards: ['Plague Seer', 'Warlock Engineer'],
    core: ['Clanrats', 'Slave Swarm', 'Giant Rats'],
    special: ['Stormvermin', 'Plague Monks', 'Gutter Runners', 'Rat Ogres'],
    rare: ['Doom Wheel', 'Warp Cannon'],
    mounts: ['Bell Shrine', 'Great Rat', 'Plague Furnace'],
    items: ['Warpstone Charm', 'Tunnel Map', 'Banner of Filth'],
  },
  {
    id: 'th',
    name: 'Thornhide Herds',
    aliases: ['TH', 'Beast Herds', 'Thornhide'],
    popularity: 5,
    characters: ['Beastlord', 'Wild Shaman', 'Herd Chieftain'],
    wizards: ['Wild Shaman'],
    core: ['Wild Herd', 'Longhorn Guard', 'Raider Herd'],
    special: ['Minotaurs', 'Razorgor Chariot', 'Centigor Band', 'Harpies'],
    rare: ['Jabberslythe', 'Cygor'],
    mounts: ['Razorgor', 'Tuskgor Chariot', 'Great Stag Beast'],
    items: ['Horn of the Wild', 'Skull Totem', 'Herdstone Shard'],
  },
  {
    id: 'aw',
    name: 'Ashen Warbands',
    aliases: ['AW', 'Ashen', 'Dark Warbands'],
    popularity: 9,
    characters: ['Ashen Chosen Lord', 'Sorcerer of Ash', 'Exalted Hero'],
    wizards: ['Sorcerer of Ash'],
    core: ['Ashen Warriors', 'Marauders', 'Warhounds'],
    special: ['Chosen Knights', 'Forsaken', 'Marauder Horsemen', 'Gorebeast Chariot'],
    rare: ['Hellcannon', 'Ash Giant'],
    mounts: ['Dark Steed', 'Manticore', 'Ash Dragon'],
    items: ['Helm of Ash', 'Blade of Ruin', 'Banner of the Eclipse'],
  },
  {
    id: 'ah',
    name: 'Abyssal Hosts',
    aliases: ['AH', 'Abyssals', 'Daemon Hosts'],
    popularity: 7,
    characters: ['Greater Abyssal', 'Herald of Change', 'Abyssal Prince'],
    wizards: ['Herald of Change', 'Greater Abyssal'],
    core: ['Lesser Abyssals', 'Flame Imps', 'Hounds of the Pit'],
    special: ['Blood Fiends', 'Seekers', 'Screamers', 'Soul Grinder'],
    rare: ['Burning Chariot', 'Pit Colossus'],
    mounts: ['Juggernaut', 'Disc of Change', 'Seeker Chariot'],
    items: ['Abyssal Gift', 'Eye of the Pit', 'Banner of Torment'],
  },
  {
    id: 'js',
    name: 'Jade Saurians',
    aliases: ['JS', 'Saurians', 'Jade Temple'],
    popularity: 6,
    characters: ['Saurian Oldblood', 'Slann Mage-Priest', 'Skink Priest'],
    wizards: ['Slann Mage-Priest', 'Skink Priest'],
    core: ['Saurus Warriors', 'Skink Skirmishers', 'Temple Guard'],
    special: ['Cold One Riders', 'Kroxigor', 'Chameleon Skinks', 'Terradon Riders'],
    rare: ['Stegadon', 'Salamander Pack'],
    mounts: ['Carnosaur', 'Cold One', 'Ancient Stegadon'],
    items: ['Jade Amulet', 'Sunstaff', 'Plaque of Dominion'],
  },
  {
    id: 'cd',
    name: 'Cinderforge Dwarves',
    aliases: ['CD', 'Cinderforge', 'Fire Dwarves'],
    popularity: 4,
    characters: ['Forge Overlord', 'Daemonsmith', 'Taskmaster'],
    wizards: ['Daemonsmith'],
    core: ['Infernal Guard', 'Hobgoblin Wolf Riders', 'Slave Gangs'],
    special: ['Immortals', 'Bull Centaurs', 'Disciples of the Forge', 'Gatling Engine'],
    rare: ['Magma Cannon', 'Iron Dreadquake'],
    mounts: ['Lammasu', 'Great Taurus', 'Bull Centaur Steed'],
    items: ['Cinder Crown', 'Brand of the Forge', 'Furnace Banner'],
  },
];

/** Magic items every army may take. */
export const SHARED_ITEMS: readonly string[] = [
  'Blade of Sundering',
  'Sword of Swift Slaying',
  'Giant Slayer',
  'Hardened Shield',
  'Dragonscale Helm',
  'Talisman of Warding',
  'Crown of Command',
  'Charm of Luck',
  'Ring of Fire',
  'Dispel Scroll',
  'Book of Secrets',
  'Potion of Strength',
  'Armour of Fortune',
  'Ogre Blade',
  'Obsidian Rock',
  'Lucky Shield',
  'Banner of Speed',
  'Rending Banner',
  'Wizard Familiar',
  'Gem of Sorcery',
];

/** Banners only go on units with a standard bearer. */
export const BANNER_ITEMS = new Set([
  'Banner of Speed',
  'Rending Banner',
  'Dawnstar Banner',
  'Oath Banner',
  'Banner of the Realm',
  'Grave Banner',
  'Standard of the Sands',
  'Waaagh Banner',
  'Cauldron Banner',
  'Banner of Filth',
  'Banner of the Eclipse',
  'Banner of Torment',
  'Furnace Banner',
]);

export const PATHS: readonly string[] = [
  'Path of Flame',
  'Path of Stars',
  'Path of Shadow',
  'Path of the Wild',
  'Path of Bones',
  'Path of Storms',
  'Path of Alchemy',
  'Path of Light',
];

export const COMMAND_GROUP: readonly string[] = ['Champion', 'Musician', 'Standard Bearer'];

export interface DemoScenarioEntry {
  kind: ScenarioKind;
  name: string;
  description: string;
}

/** Scenario packs fix the deployment and primary objective; the map is drawn per round. */
export const SCENARIO_PACKS: readonly {
  name: string;
  deployment: string;
  primary: string;
  description: string;
}[] = [
  {
    name: 'Border Skirmish',
    deployment: 'Line of Battle',
    primary: 'Hold the Line',
    description: 'Two armies meet head on along a disputed border.',
  },
  {
    name: 'Night Raid',
    deployment: 'Dawn Ambush',
    primary: 'Plunder',
    description: 'A raid on a supply camp at first light; units may arrive late.',
  },
  {
    name: 'Rearguard',
    deployment: 'Refused Flank',
    primary: 'Break Through',
    description: 'One flank is held back while the other races for the far edge.',
  },
  {
    name: 'Contested Heights',
    deployment: 'Counter-Thrust',
    primary: 'High Ground',
    description: 'Both armies deploy in turns and fight for the central hill.',
  },
  {
    name: 'Encircled',
    deployment: 'Pincer',
    primary: 'Strongpoint',
    description: 'Forces come in from the corners around a fortified position.',
  },
  {
    name: 'Relief Column',
    deployment: 'Column March',
    primary: 'Banners Aloft',
    description: 'Armies arrive in marching order and must keep their banners flying.',
  },
];

export const MAPS: readonly { name: string; description: string }[] = [
  { name: 'Ruined Village', description: 'Dense buildings in the centre, open flanks.' },
  { name: 'River Ford', description: 'A river crosses the table with two fords.' },
  { name: 'Old Forest', description: 'Several woods break up lines of sight.' },
  { name: 'Hill Fort', description: 'A large hill with walls dominates one side.' },
  { name: 'Crossroads', description: 'Open ground with a shrine at the crossroads.' },
  { name: 'Marshlands', description: 'Difficult marsh terrain slows every advance.' },
  { name: 'Standing Stones', description: 'A ring of stones in the middle of the field.' },
  { name: 'Quarry', description: 'Impassable pits and a few ramps.' },
];

export const DEPLOYMENT_TEXT: Readonly<Record<string, string>> = {
  'Line of Battle': 'Long edges, 12" deep deployment zones.',
  'Dawn Ambush': 'Long edges; some units roll to arrive from reserves.',
  'Refused Flank': 'Diagonal zones that leave one flank empty.',
  'Counter-Thrust': 'Units deploy one at a time, alternating, in offset zones.',
  Pincer: 'Zones in opposite corners with a gap in the centre.',
  'Column March': 'Units deploy in order, narrow zones along the long edges.',
};

export const PRIMARY_TEXT: Readonly<Record<string, string>> = {
  'Hold the Line': 'Control more of your own half than the enemy does.',
  Plunder: 'Hold more of the four loot markers at the end.',
  'Break Through': 'Have more scoring units in the enemy deployment zone.',
  'High Ground': 'Control the central hill at the end of the game.',
  Strongpoint: 'Hold the marked building or area at the end.',
  'Banners Aloft': 'Keep more standard bearers alive than the enemy.',
};

export const SECONDARIES: readonly { name: string; description: string }[] = [
  { name: 'Slay the General', description: 'Kill the enemy general.' },
  { name: 'Claim the Centre', description: 'Control the centre of the table at the end.' },
  { name: 'Scout the Flanks', description: 'Have units in both enemy table quarters.' },
  { name: 'Burn the Banners', description: 'Destroy more standard bearers than you lose.' },
  { name: 'Hold the Relic', description: 'Carry the relic marker at the end.' },
  { name: 'Break Their Ranks', description: 'Destroy the most expensive enemy unit.' },
];

export interface DemoCity {
  city: string;
  lat: number;
  lon: number;
}

export interface DemoCountry {
  code: string;
  region: string;
  /** Relative size of its player base. */
  weight: number;
  /** Index into NAME_GROUPS. */
  names: number;
  cities: DemoCity[];
}

// Real city-centre coordinates (WGS 84, rounded to 3 decimals).
export const COUNTRIES: readonly DemoCountry[] = [
  {
    code: 'DE',
    region: 'Europe',
    weight: 14,
    names: 0,
    cities: [
      { city: 'Berlin', lat: 52.52, lon: 13.405 },
      { city: 'Munich', lat: 48.137, lon: 11.575 },
      { city: 'Hamburg', lat: 53.551, lon: 9.993 },
      { city: 'Cologne', lat: 50.938, lon: 6.96 },
    ],
  },
  {
    code: 'ES',
    region: 'Europe',
    weight: 12,
    names: 1,
    cities: [
      { city: 'Madrid', lat: 40.417, lon: -3.704 },
      { city: 'Barcelona', lat: 41.385, lon: 2.173 },
      { city: 'Valencia', lat: 39.47, lon: -0.376 },
      { city: 'Seville', lat: 37.389, lon: -5.984 },
    ],
  },
  {
    code: 'IT',
    region: 'Europe',
    weight: 11,
    names: 1,
    cities: [
      { city: 'Rome', lat: 41.903, lon: 12.496 },
      { city: 'Milan', lat: 45.464, lon: 9.19 },
      { city: 'Turin', lat: 45.07, lon: 7.687 },
      { city: 'Bologna', lat: 44.494, lon: 11.343 },
    ],
  },
  {
    code: 'FR',
    region: 'Europe',
    weight: 8,
    names: 1,
    cities: [
      { city: 'Paris', lat: 48.857, lon: 2.352 },
      { city: 'Lyon', lat: 45.764, lon: 4.836 },
      { city: 'Toulouse', lat: 43.605, lon: 1.444 },
    ],
  },
  {
    code: 'PL',
    region: 'Europe',
    weight: 9,
    names: 2,
    cities: [
      { city: 'Warsaw', lat: 52.23, lon: 21.012 },
      { city: 'Krakow', lat: 50.065, lon: 19.945 },
      { city: 'Wroclaw', lat: 51.108, lon: 17.039 },
    ],
  },
  {
    code: 'GB',
    region: 'Europe',
    weight: 8,
    names: 3,
    cities: [
      { city: 'London', lat: 51.507, lon: -0.128 },
      { city: 'Manchester', lat: 53.481, lon: -2.243 },
      { city: 'Nottingham', lat: 52.954, lon: -1.158 },
    ],
  },
  {
    code: 'SE',
    region: 'Europe',
    weight: 5,
    names: 4,
    cities: [
      { city: 'Stockholm', lat: 59.329, lon: 18.069 },
      { city: 'Gothenburg', lat: 57.709, lon: 11.975 },
    ],
  },
  {
    code: 'NO',
    region: 'Europe',
    weight: 3,
    names: 4,
    cities: [{ city: 'Oslo', lat: 59.914, lon: 10.752 }],
  },
  {
    code: 'DK',
    region: 'Europe',
    weight: 4,
    names: 4,
    cities: [{ city: 'Copenhagen', lat: 55.676, lon: 12.568 }],
  },
  {
    code: 'FI',
    region: 'Europe',
    weight: 3,
    names: 4,
    cities: [{ city: 'Helsinki', lat: 60.17, lon: 24.938 }],
  },
  {
    code: 'NL',
    region: 'Europe',
    weight: 4,
    names: 0,
    cities: [
      { city: 'Amsterdam', lat: 52.368, lon: 4.904 },
      { city: 'Utrecht', lat: 52.091, lon: 5.122 },
    ],
  },
  {
    code: 'BE',
    region: 'Europe',
    weight: 3,
    names: 0,
    cities: [
      { city: 'Brussels', lat: 50.85, lon: 4.352 },
      { city: 'Ghent', lat: 51.054, lon: 3.717 },
    ],
  },
  {
    code: 'AT',
    region: 'Europe',
    weight: 4,
    names: 0,
    cities: [
      { city: 'Vienna', lat: 48.208, lon: 16.373 },
      { city: 'Graz', lat: 47.071, lon: 15.439 },
    ],
  },
  {
    code: 'CH',
    region: 'Europe',
    weight: 2,
    names: 0,
    cities: [{ city: 'Zurich', lat: 47.377, lon: 8.541 }],
  },
  {
    code: 'CZ',
    region: 'Europe',
    weight: 4,
    names: 2,
    cities: [
      { city: 'Prague', lat: 50.076, lon: 14.438 },
      { city: 'Brno', lat: 49.195, lon: 16.607 },
    ],
  },
  {
    code: 'HU',
    region: 'Europe',
    weight: 3,
    names: 2,
    cities: [{ city: 'Budapest', lat: 47.498, lon: 19.04 }],
  },
  {
    code: 'SI',
    region: 'Europe',
    weight: 2,
    names: 2,
    cities: [{ city: 'Ljubljana', lat: 46.056, lon: 14.506 }],
  },
  {
    code: 'HR',
    region: 'Europe',
    weight: 2,
    names: 2,
    cities: [{ city: 'Zagreb', lat: 45.815, lon: 15.982 }],
  },
  {
    code: 'PT',
    region: 'Europe',
    weight: 3,
    names: 1,
    cities: [
      { city: 'Lisbon', lat: 38.722, lon: -9.139 },
      { city: 'Porto', lat: 41.158, lon: -8.629 },
    ],
  },
  {
    code: 'GR',
    region: 'Europe',
    weight: 3,
    names: 1,
    cities: [{ city: 'Athens', lat: 37.984, lon: 23.728 }],
  },
  {
    code: 'IE',
    region: 'Europe',
    weight: 2,
    names: 3,
    cities: [{ city: 'Dublin', lat: 53.35, lon: -6.26 }],
  },
  {
    code: 'US',
    region: 'North America',
    weight: 6,
    names: 3,
    cities: [
      { city: 'Chicago', lat: 41.878, lon: -87.63 },
      { city: 'Seattle', lat: 47.606, lon: -122.332 },
      { city: 'Atlanta', lat: 33.749, lon: -84.388 },
    ],
  },
  {
    code: 'CA',
    region: 'North America',
    weight: 3,
    names: 3,
    cities: [{ city: 'Toronto', lat: 43.653, lon: -79.383 }],
  },
  {
    code: 'AU',
    region: 'Oceania',
    weight: 4,
    names: 3,
    cities: [
      { city: 'Melbourne', lat: -37.814, lon: 144.963 },
      { city: 'Sydney', lat: -33.869, lon: 151.209 },
    ],
  },
  {
    code: 'NZ',
    region: 'Oceania',
    weight: 1,
    names: 3,
    cities: [{ city: 'Auckland', lat: -36.848, lon: 174.763 }],
  },
  {
    code: 'AR',
    region: 'South America',
    weight: 2,
    names: 1,
    cities: [{ city: 'Buenos Aires', lat: -34.604, lon: -58.382 }],
  },
];

/** Given names and surname syllables per naming tradition; surnames are prefix + suffix. */
export const NAME_GROUPS: readonly { given: string[]; prefix: string[]; suffix: string[] }[] = [
  {
    given: ['Lukas', 'Jonas', 'Felix', 'Max', 'Paul', 'Leon', 'Tobias', 'Stefan', 'Anna', 'Lena'],
    prefix: ['Berg', 'Hof', 'Wald', 'Stein', 'Lind', 'Brand', 'Kessel', 'Falk', 'Roth', 'Eich'],
    suffix: ['mann', 'er', 'berg', 'feld', 'ner', 'hardt', 'inger', 'meier', 'bach', 'ler'],
  },
  {
    given: ['Marco', 'Luca', 'Javier', 'Pablo', 'Nicolas', 'Hugo', 'Sofia', 'Elena', 'Diego'],
    prefix: ['Mart', 'Ferr', 'Rom', 'Gall', 'Cost', 'Mor', 'Rod', 'Fontan', 'Bel', 'Sant'],
    suffix: ['ini', 'ez', 'ano', 'ari', 'ero', 'ello', 'iguez', 'et', 'ier', 'one'],
  },
  {
    given: ['Jakub', 'Tomasz', 'Piotr', 'Marek', 'Ondrej', 'Pavel', 'Ivan', 'Zofia', 'Katarzyna'],
    prefix: ['Nowak', 'Kowal', 'Wisn', 'Dvor', 'Horv', 'Novot', 'Kral', 'Zielin', 'Lew', 'Mazur'],
    suffix: ['ski', 'czyk', 'ek', 'ak', 'ath', 'ny', 'ovic', 'iewicz', 'as', 'ik'],
  },
  {
    given: ['James', 'Oliver', 'Harry', 'Jack', 'Ethan', 'Liam', 'Emily', 'Grace', 'Sean', 'Ryan'],
    prefix: ['Ash', 'Black', 'Brad', 'Carl', 'Hart', 'Mor', 'Whit', 'Thorn', 'Fair', 'Kings'],
    suffix: ['ford', 'well', 'ton', 'ley', 'wood', 'by', 'more', 'ridge', 'field', 'worth'],
  },
  {
    given: ['Erik', 'Lars', 'Nils', 'Mikael', 'Anders', 'Jens', 'Sami', 'Ingrid', 'Astrid'],
    prefix: ['Lund', 'Berg', 'Holm', 'Dahl', 'Strand', 'Sand', 'Nord', 'Vik', 'Lind', 'Kivi'],
    suffix: ['qvist', 'gren', 'sen', 'berg', 'strom', 'by', 'lund', 'nen', 'ström', 'ssen'],
  },
];

export const VENUE_KINDS: readonly string[] = [
  'Games Hall',
  'Community Centre',
  'Dragon Inn',
  'Dice Tower Club',
  'Wargames Club',
  'Convention Centre',
  'Town Hall',
  'Sports Hall',
];

export const EVENT_SUFFIXES: readonly string[] = [
  'Open',
  'Clash',
  'Grand Melee',
  'Cup',
  'Throwdown',
  'Warfare',
  'Gathering',
  'Invitational',
  'Battle Day',
  'Skirmish',
  'Crusade',
  'Challenge',
];

export const TEAM_MASCOTS: readonly string[] = [
  'Bears',
  'Wolves',
  'Ravens',
  'Lions',
  'Griffons',
  'Badgers',
  'Hammers',
  'Dragons',
  'Stags',
  'Foxes',
];
