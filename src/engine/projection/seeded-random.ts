/**
 * The projection's pseudo-random numbers: mulberry32 (Tommy Ettinger, 2017; a 32-bit state
 * passed through a multiply-xorshift), seeded from the request so that the same request answers
 * the same numbers and its answer can be cached.
 */

/** A generator of uniform numbers in [0, 1). */
export type Random = () => number;

/** mulberry32 from a 32-bit seed. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
