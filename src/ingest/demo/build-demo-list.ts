/**
 * Builds one army list for a demo entry: units bought up to the points limit, characters with
 * mounts, paths and magic items, units with command groups and the odd banner.
 */
import type { ArmyList, ListOption, ListUnit } from '../../domain/model.ts';
import { BANNER_ITEMS, COMMAND_GROUP, SHARED_ITEMS } from './demo-catalogue.ts';
import type { DemoArmy } from './demo-catalogue.ts';
import type { DemoWorld, UnitSpec } from './demo-world.ts';
import type { Rng } from './rng.ts';

export interface BuiltList {
  list: ArmyList;
  /** Hidden strength of the list (logit units), the sum of its parts' effects. */
  power: number;
}

type Category = UnitSpec['category'];
const CATEGORIES: readonly Category[] = ['Characters', 'Core', 'Special', 'Rare'];
const LIMITS: readonly number[] = [4, 4, 5, 3];
const CATEGORY_WEIGHTS = [0.15, 0.25, 0.4, 0.2];
const MOUNT_WEIGHTS = [3, 2, 1];
const MOUNT_TOTAL = 6;
const ITEM_COUNT_WEIGHTS = [1, 4, 3, 1];
const ITEM_COUNT_TOTAL = 9;

interface Pool {
  names: string[];
  weights: number[];
  total: number;
}

interface ArmyPools {
  units: Pool[];
  items: Pool;
  banners: Pool;
}

function pool(names: string[], weight: (n: string) => number): Pool {
  const weights = names.map(weight);
  return { names, weights, total: weights.reduce((s, w) => s + w, 0) };
}

// Lists are built thousands of times per run; the weighted pools are worked out once per world.
const poolCache = new WeakMap<DemoWorld, Map<string, ArmyPools>>();

function armyPools(world: DemoWorld, army: DemoArmy): ArmyPools {
  let byArmy = poolCache.get(world);
  if (!byArmy) poolCache.set(world, (byArmy = new Map()));
  const cached = byArmy.get(army.id);
  if (cached) return cached;
  const unitWeight = (n: string) => world.units.get(n)?.popularity ?? 1;
  const itemWeight = (n: string) => world.items.get(n)?.popularity ?? 1;
  const allItems = [...SHARED_ITEMS, ...army.items];
  const pools: ArmyPools = {
    units: [army.characters, army.core, army.special, army.rare].map((n) => pool(n, unitWeight)),
    items: pool(
      allItems.filter((n) => !BANNER_ITEMS.has(n)),
      itemWeight,
    ),
    banners: pool(
      allItems.filter((n) => BANNER_ITEMS.has(n)),
      itemWeight,
    ),
  };
  byArmy.set(army.id, pools);
  return pools;
}

// A class rather than closures: buildDemoList runs ~5,000 times per dataset.
class ListBuilder {
  readonly units: ListUnit[] = [];
  readonly usedItems = new Set<string>();
  readonly counts = [0, 0, 0, 0];
  total = 0;
  power = 0;
  private cost = 0;
  private effect = 0;
  private readonly taken: string[] = [];
  private readonly pools: ArmyPools;

  private readonly rng: Rng;
  private readonly world: DemoWorld;
  private readonly army: DemoArmy;
  private readonly pointsLimit: number;
  constructor(rng: Rng, world: DemoWorld, army: DemoArmy, pointsLimit: number) {
    this.rng = rng;
    this.world = world;
    this.army = army;
    this.pointsLimit = pointsLimit;
    this.pools = armyPools(world, army);
  }

  /** Each magic item is taken at most once per list; a few redraws find a free one. */
  private pickItem(from: Pool, options: ListOption[]): void {
    for (let attempt = 0; attempt < 6; attempt++) {
      const name = from.names[this.rng.weighted(from.weights, from.total)];
      if (this.usedItems.has(name)) continue;
      const item = this.world.items.get(name);
      this.usedItems.add(name);
      this.taken.push(name);
      options.push({ name, type: 'Magic Items' });
      this.cost += item?.cost ?? 0;
      this.effect += item?.effect ?? 0;
      return;
    }
  }

  /** Buys one unit of the category when it fits; false when it does not. */
  tryAdd(c: number): boolean {
    if (this.counts[c] >= LIMITS[c]) return false;
    const { rng, world, army } = this;
    const category = CATEGORIES[c];
    const unitPool = this.pools.units[c];
    const name = unitPool.names[rng.weighted(unitPool.weights, unitPool.total)];
    const spec = world.units.get(name);
    if (!spec) throw new Error(`demo catalogue: no spec for unit "${name}"`);
    const models = rng.int(spec.minModels, spec.maxModels);
    this.cost = spec.baseCost + (models - spec.minModels) * spec.perModel;
    this.effect = spec.effect;
    this.taken.length = 0;
    const options: ListOption[] = [];
    if (category === 'Characters') {
      if (army.wizards.includes(name)) {
        options.push({ name: rng.pick(world.armyPaths.get(army.id) ?? []), type: 'Path' });
        this.cost += 10 * rng.int(0, 8);
      }
      if (rng.chance(0.45)) {
        const mountName = army.mounts[rng.weighted(MOUNT_WEIGHTS, MOUNT_TOTAL)];
        const mount = world.mounts.get(mountName);
        options.push({ name: mountName, type: 'Mount' });
        this.cost += mount?.cost ?? 0;
        this.effect += mount?.effect ?? 0;
      }
      const itemCount = rng.weighted(ITEM_COUNT_WEIGHTS, ITEM_COUNT_TOTAL);
      for (let i = 0; i < itemCount; i++) this.pickItem(this.pools.items, options);
    } else if (spec.maxModels > 3) {
      const full = rng.chance(0.55);
      let banner = false;
      for (const cg of COMMAND_GROUP) {
        if (full || rng.chance(0.5)) {
          options.push({ name: cg, type: 'Command Group' });
          this.cost += 10;
          banner ||= cg === 'Standard Bearer';
        }
      }
      if (banner && rng.chance(0.22)) this.pickItem(this.pools.banners, options);
    }
    if (this.total + this.cost > this.pointsLimit) {
      for (const item of this.taken) this.usedItems.delete(item);
      return false;
    }
    this.units.push({ name, category, cost: this.cost, models, options });
    this.counts[c]++;
    this.total += this.cost;
    this.power += this.effect;
    return true;
  }
}

/** A list of `army` that fits in `pointsLimit`, drawn from the world's popularity weights. */
export function buildDemoList(
  rng: Rng,
  world: DemoWorld,
  army: DemoArmy,
  pointsLimit: number,
): BuiltList {
  const b = new ListBuilder(rng, world, army, pointsLimit);
  b.tryAdd(0);
  b.tryAdd(1);
  b.tryAdd(1);
  for (let misses = 0; misses < 8; ) {
    if (b.tryAdd(rng.weighted(CATEGORY_WEIGHTS))) misses = 0;
    else misses++;
  }
  const rank = (u: ListUnit) => CATEGORIES.indexOf(u.category as Category);
  b.units.sort((x, y) => rank(x) - rank(y));
  return { list: { points: b.total, units: b.units }, power: b.power };
}
