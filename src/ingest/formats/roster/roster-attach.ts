/**
 * Matching a folder of rosters to an event's players (docs/import-formats.md#matching-rosters-to-players):
 * a roster names no event and no player, so its file name does (the player's id or name, in any
 * case, `_` for a space), or a `rosters.csv` beside the rosters (`file,player`) says whose it is.
 * Rosters that match nobody, or two rosters for one player, are rejected with the file named;
 * players left without a list are listed in the import's notes, as are rosters whose units name
 * no category, or a category link that targets no category of its force.
 */

import { basename, dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Reject } from '../../../domain/import-batch.ts';
import type { ArmyList } from '../../../domain/model.ts';
import { nameKey } from '../../../domain/normalize-name.ts';
import { findFiles } from '../../folder-walk.ts';
import { decodeUtf8, NotUtf8Error, readFileBounded } from '../../input-text.ts';
import { NUL_REASON, nulPointer } from '../../nul-text.ts';
import { MAX_ROSTER_BYTES, readRoster, ROSTER_EXTENSIONS, RosterError } from './roster-parse.ts';

/** The mapping file a roster folder may hold. */
export const ROSTER_MAPPING_FILE = 'rosters.csv';

export interface RosterPlayer {
  id: string;
  name: string | null;
}

/** What matching gave: a list per player id, and the rejects (files read or matched badly). */
export interface RosterMatch {
  lists: Map<string, ArmyList>;
  rejects: Reject[];
  /** Rosters read, whether they matched or not. */
  read: number;
  /** What the user should hear of the rosters that matched (units without any category). */
  notes: string[];
}

/** A file name or a player's name folded for comparison: case, spaces and `_` alike. */
const fold = (s: string) => nameKey(s.replace(/_/g, ' '));

function stem(file: string): string {
  const name = basename(file);
  const ext = ROSTER_EXTENSIONS.find((e) => name.toLowerCase().endsWith(e));
  return ext === undefined ? name : name.slice(0, -ext.length);
}

const isRoster = (name: string) =>
  ROSTER_EXTENSIONS.some((e) => name.toLowerCase().endsWith(e)) && name !== ROSTER_MAPPING_FILE;

/**
 * The roster files under `paths` (files, or folders read recursively, in name order), and the
 * entries that could not be used, as file rejects (docs/import-formats.md#folders).
 */
export async function rosterFiles(
  paths: string[],
): Promise<{ files: string[]; rejects: Reject[] }> {
  const files: string[] = [];
  const rejects: Reject[] = [];
  for (const path of paths) {
    const found = await findFiles(path, isRoster);
    files.push(...found.paths);
    rejects.push(...found.rejects);
  }
  return { files, rejects };
}

const fileReject = (
  source: string,
  reason: string,
  payload: unknown = null,
  record: string | null = null,
): Reject => ({
  kind: 'file',
  source,
  record,
  field: null,
  reason,
  payload,
});

/** `rosters.csv` in a folder: file name -> player id or name; bad lines are rejected. */
async function readMapping(dir: string, rejects: Reject[]): Promise<Map<string, string>> {
  const path = join(dir, ROSTER_MAPPING_FILE);
  const mapping = new Map<string, string>();
  let rows: string[][];
  try {
    rows = parse(decodeUtf8(await readFileBounded(path, MAX_ROSTER_BYTES, { regularOnly: true })), {
      bom: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      rejects.push(
        fileReject(
          path,
          `cannot read: ${(error as Error).message}`,
          null,
          error instanceof NotUtf8Error ? `line ${error.line}` : null,
        ),
      );
    return mapping;
  }
  const [header, ...lines] = rows;
  if (header?.[0]?.toLowerCase() !== 'file' || header?.[1]?.toLowerCase() !== 'player') {
    rejects.push(fileReject(path, 'the header must be "file,player"'));
    return mapping;
  }
  lines.forEach((cells, i) => {
    if (!cells[0] || !cells[1]) {
      rejects.push(fileReject(path, 'a line needs a file and a player', cells, `line ${i + 2}`));
    } else mapping.set(cells[0], cells[1]);
  });
  return mapping;
}

/** The player a roster belongs to: the mapping's word, else the file name, by id then name. */
function owner(
  file: string,
  mapping: Map<string, string>,
  players: RosterPlayer[],
): RosterPlayer | null {
  const said = mapping.get(basename(file)) ?? stem(file);
  const key = fold(said);
  return (
    players.find((p) => p.id === said) ??
    players.find((p) => fold(p.id) === key) ??
    players.find((p) => p.name !== null && fold(p.name) === key) ??
    null
  );
}

/**
 * Reads the rosters at `files` and matches each to one of `players` (of event `eventId`). Every
 * failure is a reject naming the roster file; the lists that matched are keyed by player id.
 */
export async function matchRosters(
  files: string[],
  players: RosterPlayer[],
  eventId: string,
): Promise<RosterMatch> {
  const rejects: Reject[] = [];
  const mappings = new Map<string, Map<string, string>>();
  const found = new Map<string, Array<{ file: string; list: ArmyList }>>();
  const notes: string[] = [];
  for (const file of files) {
    const dir = dirname(file);
    if (!mappings.has(dir)) mappings.set(dir, await readMapping(dir, rejects));
    let list: ArmyList;
    let uncategorised: boolean;
    let unresolvedLinks: string[];
    try {
      ({ list, uncategorised, unresolvedLinks } = await readRoster(file));
    } catch (error) {
      const line = error instanceof RosterError ? error.line : null;
      const { message } = error as Error;
      rejects.push(
        fileReject(
          file,
          // A NUL is said as every format says it; the file may well be a roster otherwise.
          message === NUL_REASON ? message : `not a roster: ${message}`,
          null,
          line === null ? null : `line ${line}`,
        ),
      );
      continue;
    }
    // Checked here as well as in validation: there the entry would be dropped from the event
    // written again, and the player's stored entry with it; here only the roster is refused.
    const nul = nulPointer(list);
    if (nul !== null) {
      rejects.push({ ...fileReject(file, NUL_REASON, list), field: nul });
      continue;
    }
    const player = owner(file, mappings.get(dir) as Map<string, string>, players);
    if (player === null) {
      rejects.push(
        fileReject(
          file,
          `matches no player of event "${eventId}": name the player (id or name) in the file name or in ${ROSTER_MAPPING_FILE}`,
          list,
        ),
      );
      continue;
    }
    found.set(player.id, [...(found.get(player.id) ?? []), { file, list }]);
    if (uncategorised) notes.push(uncategorisedNote(file, player, list));
    if (unresolvedLinks.length > 0) notes.push(unresolvedLinksNote(file, player, unresolvedLinks));
  }
  const lists = new Map<string, ArmyList>();
  for (const [player, rosters] of found) {
    if (rosters.length === 1) {
      lists.set(player, rosters[0].list);
      continue;
    }
    const names = rosters.map((r) => basename(r.file)).join(', ');
    for (const r of rosters)
      rejects.push(
        fileReject(
          r.file,
          `player "${player}" has ${rosters.length} rosters (${names}): keep one`,
          r.list,
        ),
      );
  }
  return { lists, rejects, read: files.length, notes };
}

/**
 * The note for a roster whose units name no category at all (docs/import-formats.md): they are
 * stored as "Unit", so statistics by category cannot tell them apart; the user should know.
 */
function uncategorisedNote(file: string, player: RosterPlayer, list: ArmyList): string {
  const who = player.name === null ? player.id : `${player.name} (${player.id})`;
  return `roster ${file} (${who}): none of its ${list.units.length} unit(s) names a category; stored as "Unit"`;
}

/**
 * The note for a roster with category links whose target is no category of their force: the
 * category stored is the link's own name ("New CategoryLink" in a 2.01 roster), which the user
 * should know is no category the catalogue names.
 */
function unresolvedLinksNote(file: string, player: RosterPlayer, names: string[]): string {
  const who = player.name === null ? player.id : `${player.name} (${player.id})`;
  const quoted = names.map((n) => `"${n}"`).join(', ');
  return `roster ${file} (${who}): a category link targets no category of its force; stored under the link's own name: ${quoted}`;
}

/**
 * The note for players an event's rosters left without a list (none: null); players whose list
 * is already stored (`listed`) have one.
 */
export function playersWithoutList(
  eventId: string,
  players: RosterPlayer[],
  lists: Map<string, ArmyList>,
  listed: ReadonlySet<string> = new Set(),
): string | null {
  const missing = players.filter((p) => !lists.has(p.id) && !listed.has(p.id));
  if (missing.length === 0) return null;
  const shown = missing.slice(0, 20).map((p) => (p.name === null ? p.id : `${p.name} (${p.id})`));
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : '';
  return `event "${eventId}": ${missing.length} player(s) without a list: ${shown.join(', ')}${more}`;
}
