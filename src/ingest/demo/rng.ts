/**
 * A small seeded pseudo-random generator for the demo data: mulberry32 (Tommy Ettinger, 2017), a
 * 32-bit state generator that is fast, tiny and good enough for synthetic data. Never Math.random:
 * the demo must be identical for the same seed.
 */
import { mulberry32 } from '../../domain/mulberry32.ts';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Index drawn with probability proportional to weights[i]; pass their sum when known. */
  weighted(weights: readonly number[], total?: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Standard logistic, the noise of a logit model. */
  logistic(): number;
  /** A new array in random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/** The demo's generator over mulberry32 (src/domain/mulberry32.ts) from a 32-bit seed. */
export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted(weights, total) {
      let sum = total ?? 0;
      if (total === undefined) for (const w of weights) sum += w;
      let r = next() * sum;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i];
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    normal() {
      const u = 1 - next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    logistic() {
      const u = Math.min(Math.max(next(), 1e-9), 1 - 1e-9);
      return Math.log(u / (1 - u));
    },
    shuffle(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return rng;
}
