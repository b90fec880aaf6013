/**
 * mulberry32 (Tommy Ettinger, 2017, https://gist.github.com/tommyettinger/46a874533244883189143505d203312c):
 * a 32-bit state passed through a multiply-xorshift. Fast, tiny and good enough for generated data
 * and simulations; seeded, so the same seed gives the same numbers (never Math.random where a
 * result must be reproducible). The one copy the demo, the projection and the benchmark share.
 */

/** Uniform numbers in [0, 1) from a 32-bit `seed`. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
