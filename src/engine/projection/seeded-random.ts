/**
 * The projection's pseudo-random numbers: mulberry32 (Tommy Ettinger, 2017; a 32-bit state
 * passed through a multiply-xorshift), seeded from the request so that the same request answers
 * the same numbers and its answer can be cached.
 */

export { mulberry32 } from '../../domain/mulberry32.ts';

/** A generator of uniform numbers in [0, 1). */
export interface Random {
  next(): number;
}

/**
 * mulberry32 as an object (the same numbers as mulberry32(seed) in src/domain/mulberry32.ts):
 * its state in a typed array, so the simulation's millions of draws neither box a number
 * between calls nor go through a closure the compiler may decline to inline.
 */
export class SeededRandom implements Random {
  private readonly state = new Uint32Array(1);

  constructor(seed: number) {
    this.state[0] = seed >>> 0;
  }

  /** The next uniform number in [0, 1) (docs/event-projection.md#reproducible). */
  next(): number {
    const s = (this.state[0] = (this.state[0] + 0x6d2b79f5) >>> 0);
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** FNV-1a of a string: the seed of a request's generator (Fowler, Noll, Vo). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
