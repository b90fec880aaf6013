/**
 * The projection's pseudo-random numbers: mulberry32 (Tommy Ettinger, 2017; a 32-bit state
 * passed through a multiply-xorshift), seeded from the request so that the same request answers
 * the same numbers and its answer can be cached.
 */

export { mulberry32 } from '../../domain/mulberry32.ts';

/** A generator of uniform numbers in [0, 1). */
export type Random = () => number;

/** FNV-1a of a string: the seed of a request's generator (Fowler, Noll, Vo). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
