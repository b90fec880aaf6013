/**
 * The pairs of a system's players whose names are alike (docs/statistics.md#duplicate-players):
 * players are grouped by the blocking keys of their names (name-keys.ts), each group's pairs are
 * compared by the likeness rules, and what is alike is kept per snapshot and system. Names do
 * not change within a snapshot, so a suggestion pass after the first only weighs play.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { formsLikeness, NAME_EVIDENCE, nameForms, nameKeys, nameWords } from './name-keys.ts';
import type { NameForms } from './name-keys.ts';

/**
 * A blocking key shared by more players than this is a common name or name part ("j" and a
 * frequent surname), whose pairs the other keys find where they are alike: skipped, so that the
 * pass stays near linear in players.
 */
export const MAX_BLOCK = 64;

/** Pairs p < q of alike names, side by side (p, q, p, q, ...), with how alike each is. */
export interface AlikePairs {
  pairs: Int32Array;
  /** Per pair, its NameEvidence as an index into NAME_EVIDENCE. */
  likeness: Uint8Array;
}

/**
 * A player's name, else their id when it reads as one (a site's slug such as "mateo"), else null:
 * a machine-made id (three digits in a row, as in hex object ids, numbers and UUIDs) is one
 * typing slip from its neighbours by construction, which says nothing of the people.
 */
function nameOf(snapshot: Snapshot, p: number): string | null {
  const name = snapshot.playerNames[p];
  if (name !== null && name.trim() !== '') return name;
  const id = snapshot.players[p];
  return /\d{3}/.test(id) ? null : id;
}

/** Interns strings as small numbers, so that a pair's forms compare as integers. */
function interner() {
  const ids = new Map<string, number>();
  return (text: string) => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  };
}

/**
 * The present players' name forms, the groups of players that share a blocking key, and per
 * player what any likeness needs (formsLikeness): the sorted full forms, which every rule up to
 * a diminutive leaves equal; the digits, which a slip leaves equal; an initial, without which
 * initials cannot match.
 */
function blocks(snapshot: Snapshot, present: Uint8Array) {
  const forms: Array<NameForms | undefined> = new Array(present.length);
  const [fullId, digitsId] = [new Int32Array(present.length), new Int32Array(present.length)];
  const initial = new Uint8Array(present.length);
  const [full, digits] = [interner(), interner()];
  const byKey = new Map<string, number[]>();
  for (let p = 0; p < present.length; p++) {
    if (present[p] === 0) continue;
    const name = nameOf(snapshot, p);
    if (name === null) continue;
    const words = nameWords(name);
    const own = (forms[p] = nameForms(name, words));
    fullId[p] = full(own.full);
    digitsId[p] = digits(own.digits);
    initial[p] = own.hasInitial ? 1 : 0;
    for (const key of nameKeys(words)) {
      const block = byKey.get(key);
      if (block === undefined) byKey.set(key, [p]);
      // A name may give one key twice; players come in order, so a repeat is the last one.
      else if (block.length <= MAX_BLOCK && block[block.length - 1] !== p) block.push(p);
    }
  }
  const mayBeAlike = (p: number, q: number) =>
    fullId[p] === fullId[q] || digitsId[p] === digitsId[q] || (initial[p] | initial[q]) === 1;
  return { forms, byKey, mayBeAlike };
}

function findAlike(snapshot: Snapshot, present: Uint8Array): AlikePairs {
  const { forms, byKey, mayBeAlike } = blocks(snapshot, present);
  // Pairs are compared where they are found, and only the alike kept (a pair found under two
  // keys is compared twice, which costs less than remembering every pair): names such as
  // "Player N" share many keys and are seldom alike, which integers tell at once.
  const n = present.length;
  const found = new Map<number, number>();
  for (const block of byKey.values()) {
    if (block.length < 2 || block.length > MAX_BLOCK) continue;
    for (let i = 0; i < block.length; i++) {
      for (let j = i + 1; j < block.length; j++) {
        if (!mayBeAlike(block[i], block[j])) continue;
        const likeness = formsLikeness(forms[block[i]]!, forms[block[j]]!);
        if (likeness !== null) found.set(block[i] * n + block[j], NAME_EVIDENCE.indexOf(likeness));
      }
    }
  }
  const keys = [...found.keys()].sort((a, b) => a - b);
  const pairs = new Int32Array(keys.length * 2);
  const likeness = new Uint8Array(keys.length);
  keys.forEach((key, i) => {
    pairs[2 * i] = Math.floor(key / n);
    pairs[2 * i + 1] = key % n;
    likeness[i] = found.get(key)!;
  });
  return { pairs, likeness };
}

const alike = new WeakMap<Snapshot, Map<number, AlikePairs>>();

/**
 * The pairs of the system's players (those `present`) whose names are alike, found once per
 * snapshot and system (docs/statistics.md#duplicate-players).
 */
export function alikePairs(snapshot: Snapshot, system: number, present: Uint8Array): AlikePairs {
  let bySystem = alike.get(snapshot);
  if (bySystem === undefined) alike.set(snapshot, (bySystem = new Map()));
  let own = bySystem.get(system);
  if (own === undefined) bySystem.set(system, (own = findAlike(snapshot, present)));
  return own;
}
