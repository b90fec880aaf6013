/**
 * `muster players`: duplicate suggestions and player merges that can be undone
 * (docs/operations.md#player-merges). A merge is a record in the store; the next snapshot counts
 * the other id's games and entries as the kept id's, and the data version it bumps makes a
 * running service load that snapshot.
 */
import { mergedIds } from '../domain/player-merge.ts';
import type { PlayerMerge } from '../domain/player-merge.ts';
import { DEFAULT_MIN_SCORE, playerDuplicates } from '../engine/players/player-duplicates.ts';
import { loadSnapshot } from '../snapshot/load-snapshot.ts';
import {
  readKnownPlayerIds,
  readPlayerAppearances,
  readPlayerMerges,
  readStandingMerges,
  undoPlayerMerge,
  writePlayerMerge,
} from '../store/player-merges.ts';
import type { PlayerAppearance } from '../store/player-merges.ts';
import type { Store } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';

export const PLAYERS_HELP = `Usage: muster players suggest [--system ID] [--min-score X]
       muster players merge KEEP OTHER --note "why"
       muster players unmerge MERGE_ID
       muster players merges

suggest   lists pairs of players who may be one person under two ids, best first, with the
          evidence for and against (the same pairs as POST /api/player-duplicates)
merge     makes OTHER count as KEEP in every figure from the next snapshot on (OTHER still
          answers, for KEEP); refused when the two played each other, or took part in one
          event or in events on overlapping days. The last line printed is the merge's id
unmerge   undoes a merge: the figures are again those from before it
merges    lists every merge, undone ones too, as JSON lines

A merge and an unmerge bump the data version, so a running service reloads.

Options:
  --system ID     suggest: only this game system (default: every system)
  --min-score X   suggest: leave out pairs scored below X, 0 to 1 (default ${DEFAULT_MIN_SCORE})
  --note TEXT     merge: why (required; kept with the merge)

Examples:
  muster players suggest --system t9a
  muster players merge p-1234 p-5678 --note "same person, renamed on the tournament site"
  muster players unmerge 3`;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Runs `muster players SUBCOMMAND`; resolves to the exit code. */
export async function runPlayers(
  store: Store,
  positionals: readonly string[],
  values: Values,
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = positionals;
  const usage = (message: string) => {
    io.err(`muster players: ${message}\n\n${PLAYERS_HELP}`);
    return 2;
  };
  if (sub === 'suggest' && rest.length === 0) return suggest(store, values, io, usage);
  if (sub === 'merges' && rest.length === 0) {
    for (const merge of await readPlayerMerges(store)) io.out(JSON.stringify(merge));
    return 0;
  }
  if (sub === 'merge' && rest.length === 2) {
    const note = values.note;
    if (typeof note !== 'string' || note.trim() === '') return usage('merge needs --note "why"');
    return merge(store, rest[0], rest[1], note.trim(), io);
  }
  if (sub === 'unmerge' && rest.length === 1) {
    if (!/^[1-9]\d{0,9}$/.test(rest[0])) return usage(`unmerge takes a merge id, got "${rest[0]}"`);
    const done = await undoPlayerMerge(store, Number(rest[0]), new Date().toISOString());
    if (!done) {
      io.err(
        `muster players unmerge: no standing merge ${rest[0]} (muster players merges lists them)`,
      );
      return 1;
    }
    io.out(`merge ${rest[0]} undone; the data version is bumped, so a running service reloads`);
    return 0;
  }
  return usage(sub === undefined ? 'name a subcommand' : `cannot read "${positionals.join(' ')}"`);
}

async function suggest(
  store: Store,
  values: Values,
  io: CliIo,
  usage: (message: string) => number,
): Promise<number> {
  const scoreText = values['min-score'];
  const minScore = typeof scoreText === 'string' ? Number(scoreText) : DEFAULT_MIN_SCORE;
  if (typeof scoreText === 'string' && !(/^\d*\.?\d+$/.test(scoreText) && minScore <= 1)) {
    return usage(`--min-score takes a number from 0 to 1, got "${scoreText}"`);
  }
  const snapshot = await loadSnapshot(store);
  const asked = typeof values.system === 'string' ? values.system : undefined;
  if (asked !== undefined && !snapshot.systemIndex.has(asked)) {
    return usage(`unknown system "${asked}"`);
  }
  const systems = asked === undefined ? snapshot.systems.map((s) => s.id) : [asked];
  const started = performance.now();
  let count = 0;
  for (const system of systems) {
    const { data, warnings } = playerDuplicates(snapshot, { system, minScore });
    const named = (id: string, name: string | null) => (name === null ? id : `${id} "${name}"`);
    for (const pair of data.pairs) {
      const [a, b] = pair.players;
      const against = pair.against.length === 0 ? '' : `; against: ${pair.against.join(', ')}`;
      io.out(
        `${system}\t${pair.score.toFixed(3)}\t${named(a, pair.names[0])}\t${named(b, pair.names[1])}\tfor: ${pair.for.join(', ')}${against}`,
      );
    }
    count += data.pairs.length;
    for (const warning of warnings) io.err(`muster players suggest: ${system}: ${warning}`);
  }
  const ms = Math.round(performance.now() - started);
  io.err(`${count} pairs suggested among ${snapshot.players.length} players in ${ms} ms`);
  return 0;
}

const days = (a: PlayerAppearance) =>
  `${a.start}${a.end !== null && a.end !== a.start ? `..${a.end}` : ''}`;

/** Why merging the two groups of ids would be wrong, or null when nothing in play says so. */
export function mergeConflict(
  keep: readonly PlayerAppearance[],
  other: readonly PlayerAppearance[],
): string | null {
  const keepGames = new Map(keep.filter((a) => a.game !== null).map((a) => [a.game, a]));
  const met = other.find((a) => a.game !== null && keepGames.has(a.game));
  if (met !== undefined) {
    return `they played each other (game ${met.game} at event ${met.event}, ${met.start}): merged, a player would play themselves`;
  }
  for (const a of other) {
    for (const b of keep) {
      if (a.event === b.event) {
        return `both took part in event ${a.event} (${days(a)}): merged, one player would be there twice`;
      }
      if (a.start <= (b.end ?? b.start) && b.start <= (a.end ?? a.start)) {
        return `one was at event ${b.event} (${days(b)}) while the other was at event ${a.event} (${days(a)}): merged, one player would be in two places on one day`;
      }
    }
  }
  return null;
}

/** Checks a merge against the store and records it; prints its id last. */
async function merge(
  store: Store,
  keep: string,
  other: string,
  note: string,
  io: CliIo,
): Promise<number> {
  const refuse = (reason: string) => {
    io.err(`muster players merge: refused: ${reason}`);
    return 1;
  };
  if (keep === other) return refuse('KEEP and OTHER are the same id');
  const standing = await readStandingMerges(store);
  const mergedOf = (id: string) => standing.find((m) => m.other === id);
  for (const [role, id] of [
    ['OTHER', other],
    ['KEEP', keep],
  ] as const) {
    const m = mergedOf(id);
    if (m !== undefined) {
      return refuse(`${role} ${id} is already merged into ${m.keep} (merge ${m.id})`);
    }
  }
  const into = mergedIds(standing);
  const group = (id: string) => [id, ...[...into].filter(([, k]) => k === id).map(([o]) => o)];
  const [keepIds, otherIds] = [group(keep), group(other)];
  const known = await readKnownPlayerIds(store, [keep, other]);
  const keepSeen = await readPlayerAppearances(store, keepIds);
  const otherSeen = await readPlayerAppearances(store, otherIds);
  for (const [id, seen] of [
    [keep, keepSeen],
    [other, otherSeen],
  ] as const) {
    if (!known.has(id) && seen.length === 0) return refuse(`no player "${id}" in the store`);
  }
  const conflict = mergeConflict(keepSeen, otherSeen);
  if (conflict !== null) return refuse(`${keep} and ${other}: ${conflict}`);
  const moved = {
    games: new Set(otherSeen.filter((a) => a.game !== null).map((a) => a.game)).size,
    entries: otherSeen.filter((a) => a.game === null).length,
  };
  const record: Omit<PlayerMerge, 'id' | 'undoneAt'> = {
    keep,
    other,
    note,
    mergedAt: new Date().toISOString(),
    moved,
  };
  const id = await writePlayerMerge(store, record);
  io.out(
    `merged ${other} into ${keep}: ${moved.games} games and ${moved.entries} entries count as ${keep}'s from the next snapshot (undo: muster players unmerge ${id})`,
  );
  io.out(String(id));
  return 0;
}
