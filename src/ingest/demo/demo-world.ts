/**
 * The hidden truth behind the demo data: how strong each army, unit, item and player really is.
 * None of it is exported in the document; it only shapes the results so that faction win rates,
 * item deltas and rankings have something real to find.
 */
import { DEMO_ARMIES, PATHS, SCENARIO_PACKS, SHARED_ITEMS } from './demo-catalogue.ts';
import type { Rng } from './rng.ts';

export interface UnitSpec {
  category: 'Characters' | 'Core' | 'Special' | 'Rare';
  /** Cost of the unit at its smallest size, or of the one model. */
  baseCost: number;
  /** Cost of each model above the minimum. */
  perModel: number;
  minModels: number;
  maxModels: number;
  effect: number;
  popularity: number;
}

export interface ItemSpec {
  cost: number;
  effect: number;
  popularity: number;
}

export interface DemoWorld {
  /** Army strength (logit units) per rules version index. */
  armyStrength: Map<string, number[]>;
  /** Antisymmetric matchup edge, keyed `${a}|${b}`. */
  matchup: Map<string, number>;
  units: Map<string, UnitSpec>;
  items: Map<string, ItemSpec>;
  mounts: Map<string, ItemSpec>;
  armyPaths: Map<string, string[]>;
  /** First-turn edge (logit units) per scenario pack. */
  firstTurnEdge: Map<string, number>;
}

/** Draws the hidden parameters once per generation (deterministic in the Rng). */
export function createWorld(rng: Rng, rulesVersions: number): DemoWorld {
  const armyStrength = new Map<string, number[]>();
  // Spread the armies evenly over [-0.24, 0.24] in a shuffled order, then nudge per version
  // (balance patches), so that the best and worst armies differ by ~15 points of win rate.
  const order = rng.shuffle(DEMO_ARMIES.map((a) => a.id));
  order.forEach((id, i) => {
    const base = -0.24 + (0.48 * i) / (order.length - 1);
    const perVersion: number[] = [];
    for (let v = 0; v < rulesVersions; v++) perVersion.push(base + rng.normal() * 0.06);
    armyStrength.set(id, perVersion);
  });

  const matchup = new Map<string, number>();
  for (const a of DEMO_ARMIES) {
    for (const b of DEMO_ARMIES) {
      if (a.id >= b.id) continue;
      const edge = rng.normal() * 0.15;
      matchup.set(`${a.id}|${b.id}`, edge);
      matchup.set(`${b.id}|${a.id}`, -edge);
    }
  }

  const units = new Map<string, UnitSpec>();
  const items = new Map<string, ItemSpec>();
  const mounts = new Map<string, ItemSpec>();
  const armyPaths = new Map<string, string[]>();
  const item = (cost: number): ItemSpec => ({
    cost,
    // Mostly small effects, with the odd standout or trap to find.
    effect: rng.chance(0.1) ? rng.normal() * 0.18 : rng.normal() * 0.04,
    popularity: Math.exp(rng.normal() * 0.9),
  });
  for (const name of SHARED_ITEMS) items.set(name, item(5 * rng.int(4, 20)));
  for (const army of DEMO_ARMIES) {
    for (const name of army.items) items.set(name, item(5 * rng.int(6, 22)));
    for (const name of army.mounts) mounts.set(name, item(10 * rng.int(4, 22)));
    armyPaths.set(army.id, rng.shuffle(PATHS).slice(0, 3));
    const unit = (category: UnitSpec['category'], name: string): void => {
      const effect = rng.chance(0.15) ? rng.normal() * 0.15 : rng.normal() * 0.04;
      const popularity = Math.exp(rng.normal() * 0.7);
      if (category === 'Characters') {
        units.set(name, {
          category,
          baseCost: 10 * rng.int(17, 38),
          perModel: 0,
          minModels: 1,
          maxModels: 1,
          effect,
          popularity,
        });
      } else if (category === 'Core' || (category === 'Special' && rng.chance(0.6))) {
        const minModels = category === 'Core' ? rng.int(10, 15) : rng.int(5, 8);
        const perModel = category === 'Core' ? rng.int(9, 18) : rng.int(17, 36);
        units.set(name, {
          category,
          baseCost: minModels * perModel + 10 * rng.int(3, 8),
          perModel,
          minModels,
          maxModels: minModels * 2,
          effect,
          popularity,
        });
      } else {
        const minModels = 1;
        const maxModels = rng.chance(0.3) ? 3 : 1;
        const baseCost = 10 * rng.int(18, 48);
        units.set(name, {
          category,
          baseCost,
          perModel: Math.round(baseCost * 0.8),
          minModels,
          maxModels,
          effect,
          popularity,
        });
      }
    };
    for (const name of army.characters) unit('Characters', name);
    for (const name of army.core) unit('Core', name);
    for (const name of army.special) unit('Special', name);
    for (const name of army.rare) unit('Rare', name);
    // Centre each army's unit and mount effects, so that army strength stays the knob that sets
    // its win rate and units only move results relative to the rest of their own army.
    const own = [...army.characters, ...army.core, ...army.special, ...army.rare];
    const mean = own.reduce((s, n) => s + (units.get(n)?.effect ?? 0), 0) / own.length;
    for (const n of own) {
      const spec = units.get(n);
      if (spec) spec.effect -= mean;
    }
    const mountMean = army.mounts.reduce((s, n) => s + (mounts.get(n)?.effect ?? 0), 0) / 3;
    for (const n of army.mounts) {
      const spec = mounts.get(n);
      if (spec) spec.effect -= mountMean;
    }
  }

  const firstTurnEdge = new Map<string, number>();
  for (const pack of SCENARIO_PACKS) firstTurnEdge.set(pack.name, 0.05 + rng.next() * 0.3);

  return { armyStrength, matchup, units, items, mounts, armyPaths, firstTurnEdge };
}
