/**
 * Players who may be one person under two ids (docs/statistics.md#duplicate-players): pairs of
 * a system's players whose names are alike (name-keys.ts), scored with what else speaks for and
 * against, leaving out every pair that play shows to be two people: they played each other, or
 * both took part in one event or in events that start on the same day.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveSystem } from '../filter.ts';
import { nameKeys, nameLikeness, nameWords } from './name-keys.ts';
import type { NameEvidence } from './name-keys.ts';

/** What else speaks for a pair besides alike names. */
export type OtherEvidence = 'same-country' | 'shared-factions';
/** What speaks against a pair that play does not rule out. */
export type AgainstEvidence = 'different-countries' | 'no-shared-faction';

export interface DuplicatePair {
  players: [string, string];
  names: [string | null, string | null];
  score: number;
  for: Array<NameEvidence | OtherEvidence>;
  against: AgainstEvidence[];
}

export interface PlayerDuplicatesRequest {
  system: string;
  minScore: number;
}

export interface PlayerDuplicatesData {
  pairs: DuplicatePair[];
}

/** The most pairs one answer lists, best first (a warning says when more were found). */
export const MAX_DUPLICATE_PAIRS = 2_000;
/** The default of minScore: alike names alone, not contradicted. */
export const DEFAULT_MIN_SCORE = 0.5;
/**
 * A blocking key shared by more players than this is a common name or name part ("j" and a
 * frequent surname), whose pairs the other keys find where they are alike: skipped, so that the
 * pass stays near linear in players.
 */
const MAX_BLOCK = 64;

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

const NAME_WEIGHT: Record<NameEvidence, number> = {
  'same-name': 0.7,
  'name-case-accents': 0.65,
  'transposed-names': 0.6,
  diminutive: 0.5,
  'one-edit': 0.45,
  initials: 0.4,
};

/** Per player of the system: rows of their sides and entries, as CSR over player indexes. */
interface PlayerRows {
  start: Int32Array;
  rows: Int32Array;
  entryStart: Int32Array;
  entries: Int32Array;
  present: Uint8Array;
}

function csr(count: number, owners: readonly number[]): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < owners.length; i += 2) start[owners[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count);
  const items = new Int32Array(owners.length / 2);
  for (let i = 0; i < owners.length; i += 2) items[fill[owners[i]]++] = owners[i + 1];
  return { start, items };
}

function playerRows(snapshot: Snapshot, system: number): PlayerRows {
  const n = snapshot.players.length;
  const present = new Uint8Array(n);
  const sides: number[] = [];
  const { rowStart, rowEnd } = snapshot.systems[system];
  for (let r = rowStart; r < rowEnd; r++) {
    const p = snapshot.player[r];
    if (p < 0) continue;
    present[p] = 1;
    sides.push(p, r);
  }
  const st = snapshot.standings;
  const entries: number[] = [];
  for (let i = 0; i < st.count; i++) {
    if (snapshot.events.system[st.event[i]] !== system || st.player[i] < 0) continue;
    present[st.player[i]] = 1;
    entries.push(st.player[i], st.event[i]);
  }
  const s = csr(n, sides);
  const e = csr(n, entries);
  return { start: s.start, rows: s.items, entryStart: e.start, entries: e.items, present };
}

/** What a player's record says: opponents, events, event start days, factions. */
interface PlayerFacts {
  opponents: Set<number>;
  events: Set<number>;
  days: Set<number>;
  factions: Set<number>;
}

function recordOf(snapshot: Snapshot, rows: PlayerRows, p: number): PlayerFacts {
  const record: PlayerFacts = {
    opponents: new Set(),
    events: new Set(),
    days: new Set(),
    factions: new Set(),
  };
  const addEvent = (e: number) => {
    record.events.add(e);
    record.days.add(snapshot.events.startDay[e]);
  };
  for (let i = rows.start[p]; i < rows.start[p + 1]; i++) {
    const r = rows.rows[i];
    record.opponents.add(snapshot.player[r ^ 1]);
    record.factions.add(snapshot.faction[r]);
    addEvent(snapshot.gameEvent[r >> 1]);
  }
  for (let i = rows.entryStart[p]; i < rows.entryStart[p + 1]; i++) addEvent(rows.entries[i]);
  return record;
}

const overlaps = <T>(a: Set<T>, b: Set<T>) => [...a].some((x) => b.has(x));

/** The candidate pairs: players who share a blocking key, each pair once (p < q). */
function candidates(snapshot: Snapshot, rows: PlayerRows, words: Map<number, string[]>) {
  const blocks = new Map<string, number[]>();
  for (let p = 0; p < rows.present.length; p++) {
    if (rows.present[p] === 0) continue;
    const name = nameOf(snapshot, p);
    if (name === null) continue;
    const w = nameWords(name);
    words.set(p, w);
    for (const key of new Set(nameKeys(w))) {
      const block = blocks.get(key);
      if (block === undefined) blocks.set(key, [p]);
      else if (block.length <= MAX_BLOCK) block.push(p);
    }
  }
  const pairs = new Set<number>();
  const n = snapshot.players.length;
  for (const block of blocks.values()) {
    if (block.length < 2 || block.length > MAX_BLOCK) continue;
    for (let i = 0; i < block.length; i++) {
      for (let j = i + 1; j < block.length; j++) pairs.add(block[i] * n + block[j]);
    }
  }
  return [...pairs].sort((a, b) => a - b).map((key) => [Math.floor(key / n), key % n] as const);
}

/** Scores one candidate pair; null when play rules it out or the names are not alike after all. */
function scorePair(
  snapshot: Snapshot,
  rows: PlayerRows,
  records: Map<number, PlayerFacts>,
  words: Map<number, string[]>,
  p: number,
  q: number,
): DuplicatePair | null {
  const likeness = nameLikeness(
    nameOf(snapshot, p)!,
    nameOf(snapshot, q)!,
    words.get(p)!,
    words.get(q)!,
  );
  if (likeness === null) return null;
  const rec = (x: number) => {
    let r = records.get(x);
    if (r === undefined) records.set(x, (r = recordOf(snapshot, rows, x)));
    return r;
  };
  const a = rec(p);
  const b = rec(q);
  if (a.opponents.has(q) || overlaps(a.events, b.events) || overlaps(a.days, b.days)) return null;
  const evidenceFor: DuplicatePair['for'] = [likeness];
  const against: AgainstEvidence[] = [];
  let score = NAME_WEIGHT[likeness];
  const [countryA, countryB] = [snapshot.playerCountries[p], snapshot.playerCountries[q]];
  if (countryA !== null && countryB !== null) {
    if (countryA.toUpperCase() === countryB.toUpperCase()) {
      evidenceFor.push('same-country');
      score += 0.15;
    } else {
      against.push('different-countries');
      score -= 0.3;
    }
  }
  if (a.factions.size > 0 && b.factions.size > 0) {
    if (overlaps(a.factions, b.factions)) {
      evidenceFor.push('shared-factions');
      score += 0.15;
    } else {
      against.push('no-shared-faction');
      score -= 0.1;
    }
  }
  return {
    players: [snapshot.players[p], snapshot.players[q]],
    names: [snapshot.playerNames[p], snapshot.playerNames[q]],
    score: Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000,
    for: evidenceFor,
    against,
  };
}

/**
 * The pairs of the system's players that may be one person, best first (score, then ids), with
 * the evidence for and against each (docs/statistics.md#duplicate-players).
 */
export function playerDuplicates(
  snapshot: Snapshot,
  request: PlayerDuplicatesRequest,
): EngineResult<PlayerDuplicatesData, PlayerDuplicatesRequest> {
  const system = resolveSystem(snapshot, request.system);
  const rows = playerRows(snapshot, system);
  const words = new Map<number, string[]>();
  const records = new Map<number, PlayerFacts>();
  const pairs: DuplicatePair[] = [];
  for (const [p, q] of candidates(snapshot, rows, words)) {
    const pair = scorePair(snapshot, rows, records, words, p, q);
    if (pair !== null && pair.score >= request.minScore) pairs.push(pair);
  }
  pairs.sort(
    (x, y) =>
      y.score - x.score ||
      (x.players[0] < y.players[0] ? -1 : x.players[0] > y.players[0] ? 1 : 0) ||
      (x.players[1] < y.players[1] ? -1 : x.players[1] > y.players[1] ? 1 : 0),
  );
  const warnings =
    pairs.length > MAX_DUPLICATE_PAIRS
      ? [`${pairs.length} pairs found; the best ${MAX_DUPLICATE_PAIRS} are listed`]
      : [];
  const { rowStart, rowEnd } = snapshot.systems[system];
  const events = new Set<number>();
  for (let r = rowStart; r < rowEnd; r += 2) events.add(snapshot.gameEvent[r >> 1]);
  return {
    data: { pairs: pairs.slice(0, MAX_DUPLICATE_PAIRS) },
    filter: { system: snapshot.systems[system].id, minScore: request.minScore },
    sample: { events: events.size, games: (rowEnd - rowStart) / 2 },
    warnings,
  };
}
