/**
 * How two players' names may be one person's (docs/statistics.md#duplicate-players): the name
 * folded (case, accents, punctuation), its words in any order, initials for given names, common
 * diminutives, or one typing slip. Names are compared through blocking keys, so that a data set
 * is paired only within groups of alike names, never all against all.
 */
import { withinOneEdit } from '../../domain/one-edit.ts';

/** What makes two names alike, strongest first (NameLikeness in the answers). */
export const NAME_EVIDENCE = [
  'same-name',
  'name-case-accents',
  'transposed-names',
  'diminutive',
  'one-edit',
  'initials',
] as const;
export type NameEvidence = (typeof NAME_EVIDENCE)[number];

/**
 * Given names and their usual short forms, by the full form (Polish, English, German, Spanish,
 * Italian and Russian forms that tournament lists use). A short form maps to its full form.
 */
const FULL_FORMS: Record<string, readonly string[]> = {
  jakub: ['kuba'],
  aleksander: ['olek', 'alek'],
  alexander: ['alex', 'sasha', 'sandro', 'xander'],
  aleksandr: ['sasha', 'sanya'],
  andrew: ['andy', 'drew'],
  anthony: ['tony'],
  bartosz: ['bartek'],
  benjamin: ['ben', 'benny', 'benji'],
  charles: ['charlie', 'chuck'],
  christopher: ['chris', 'kit'],
  daniel: ['dan', 'danny'],
  david: ['dave', 'davy'],
  dmitri: ['dima'],
  edward: ['ed', 'eddie', 'ted', 'ned'],
  elizabeth: ['liz', 'beth', 'lizzy', 'betty'],
  francisco: ['paco', 'pancho', 'fran'],
  frederick: ['fred', 'freddie'],
  giuseppe: ['beppe', 'peppe'],
  gregory: ['greg'],
  grzegorz: ['grzesiek'],
  guillermo: ['memo', 'guille'],
  ignacio: ['nacho'],
  james: ['jim', 'jimmy', 'jamie'],
  jennifer: ['jen', 'jenny'],
  johannes: ['hannes'],
  jonathan: ['jon', 'jonny'],
  jose: ['pepe'],
  joseph: ['joe', 'joey'],
  katarzyna: ['kasia'],
  katherine: ['kate', 'kathy', 'katie'],
  kenneth: ['ken', 'kenny'],
  krzysztof: ['krzys'],
  lawrence: ['larry'],
  maciej: ['maciek'],
  malgorzata: ['gosia'],
  margaret: ['maggie', 'meg', 'peggy'],
  matthew: ['matt'],
  michael: ['mike', 'mick', 'mikey'],
  mikhail: ['misha'],
  nicholas: ['nick', 'nicky'],
  patrick: ['pat', 'paddy'],
  peter: ['pete'],
  piotr: ['piotrek'],
  rebecca: ['becky'],
  richard: ['rick', 'rich', 'ricky', 'dick'],
  robert: ['bob', 'rob', 'bobby', 'robbie'],
  samuel: ['sam', 'sammy'],
  stanislaw: ['staszek'],
  stephen: ['steve'],
  steven: ['steve'],
  susan: ['sue'],
  thomas: ['tom', 'tommy'],
  timothy: ['tim', 'timmy'],
  tomasz: ['tomek'],
  victoria: ['vicky'],
  vladimir: ['vova', 'volodya'],
  william: ['bill', 'billy', 'will', 'liam'],
  wojciech: ['wojtek'],
  zachary: ['zach', 'zack'],
};

const FULL_FORM = new Map<string, string>(
  Object.entries(FULL_FORMS).flatMap(([full, shorts]) => shorts.map((s) => [s, full] as const)),
);

/** Folded names shorter than this take no one-edit key: "ab" and "ac" say nothing. */
const MIN_EDIT_LENGTH = 5;

/**
 * The name's words, case-folded, accents and punctuation dropped (NFKD then the combining marks
 * removed; "ł" and "ø", which Unicode does not decompose, spelled as their base letters).
 */
export function nameWords(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ł/g, 'l')
    .replace(/ø/g, 'o')
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd');
  return folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

const sortedJoin = (words: readonly string[], by = ' ') => [...words].sort().join(by);
const fullForms = (words: readonly string[]) => words.map((w) => FULL_FORM.get(w) ?? w);

/** The blocking keys of a name: two names that are alike in any way above share one. */
export function nameKeys(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const keys = [`w:${sortedJoin(fullForms(words))}`];
  for (const word of words) {
    if (word.length < 2) continue;
    for (const other of words) if (other !== word) keys.push(`i:${word}|${other[0]}`);
  }
  // One edit: a string and each of its one-deletions (Garbe's symmetric deletion), so that two
  // strings one insertion, deletion or replacement apart share a key.
  const compact = sortedJoin(words, '');
  if (compact.length >= MIN_EDIT_LENGTH) {
    keys.push(`e:${compact}`);
    for (let i = 0; i < compact.length; i++) {
      keys.push(`e:${compact.slice(0, i)}${compact.slice(i + 1)}`);
    }
  }
  return keys;
}

/**
 * Whether, once the words both names spell out are set aside, every word left is an initial of
 * a word left in the other name (or a lone initial, such as a middle one).
 */
function initialsMatch(a: readonly string[], b: readonly string[]): boolean {
  const restA = [...a];
  const restB = [...b];
  let shared = 0;
  for (let i = restA.length - 1; i >= 0; i--) {
    const j = restB.indexOf(restA[i]);
    if (restA[i].length >= 2 && j >= 0) {
      restA.splice(i, 1);
      restB.splice(j, 1);
      shared++;
    }
  }
  if (shared === 0) return false;
  let matched = 0;
  for (const [from, to] of [
    [restA, restB],
    [restB, restA],
  ]) {
    for (const word of from) {
      if (word.length !== 1) continue;
      const j = to.findIndex((w) => w.length > 1 && w[0] === word);
      if (j >= 0) {
        to.splice(j, 1);
        matched++;
      }
    }
  }
  return matched > 0 && [...restA, ...restB].every((w) => w.length === 1);
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** What the likeness rules compare of one name, worked out once per name rather than per pair. */
export interface NameForms {
  trimmed: string;
  words: readonly string[];
  /** The words in their order, then sorted, then sorted in their full forms, then run together. */
  joined: string;
  sorted: string;
  full: string;
  compact: string;
  digits: string;
  /** Whether a word is one letter: without one on either side, initials cannot match. */
  hasInitial: boolean;
}

/** The forms of `name` whose folded words are `words` (nameWords). */
export function nameForms(name: string, words: readonly string[]): NameForms {
  const compact = sortedJoin(words, '');
  return {
    trimmed: name.trim(),
    words,
    joined: words.join(' '),
    sorted: sortedJoin(words),
    full: sortedJoin(fullForms(words)),
    compact,
    digits: digitsOf(compact),
    hasInitial: words.some((w) => w.length === 1),
  };
}

/** The strongest way two names are alike, or null when they are not (by the rules above). */
export function formsLikeness(a: NameForms, b: NameForms): NameEvidence | null {
  if (a.trimmed === b.trimmed) return 'same-name';
  if (a.words.length === 0 || b.words.length === 0) return null;
  if (a.joined === b.joined) return 'name-case-accents';
  if (a.sorted === b.sorted) return 'transposed-names';
  if (a.full === b.full) return 'diminutive';
  // A number in a name tells people apart ("Player 12", "Player 13"); a slip changes letters.
  if (
    Math.min(a.compact.length, b.compact.length) >= MIN_EDIT_LENGTH &&
    a.digits === b.digits &&
    withinOneEdit(a.compact, b.compact)
  ) {
    return 'one-edit';
  }
  return (a.hasInitial || b.hasInitial) && initialsMatch(a.words, b.words) ? 'initials' : null;
}

/** The strongest way two names are alike, or null when they are not (by the rules above). */
export function nameLikeness(
  a: string,
  b: string,
  wordsA: readonly string[],
  wordsB: readonly string[],
): NameEvidence | null {
  return formsLikeness(nameForms(a, wordsA), nameForms(b, wordsB));
}
