/**
 * A derivation module whose every part fails: a helper thread running it dies mid-derivation,
 * as one would on an out-of-memory error (test/threads/derive-host.test.ts).
 */
export const parts = 2;

export function derive(): never {
  throw new Error('this helper fails on purpose');
}
