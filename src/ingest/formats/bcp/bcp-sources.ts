/**
 * Where pairing-app exports are found and how they are read (docs/import-formats.md#pairing-app-exports):
 * a folder holding `event.json`, `players.json` and `pairings.json` (and optionally a `rosters/`
 * folder), a folder of such folders (one per event), or one JSON file with the keys `event`,
 * `players` and `pairings`. Events are read one at a time and handed on in batches of about
 * `batchGames` games, so memory holds one batch and one event, whatever the number of events.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArmyList, GameSystem, ScoreRules } from '../../../domain/model.ts';
import { cleanName, nameKey } from '../../../domain/normalize-name.ts';
import type { Reject } from '../../../domain/import-batch.ts';
import { addBcpExport } from './bcp-adapter.ts';
import { findFolders } from '../../folder-walk.ts';
import type { BcpExport, BcpSystem, BcpTally } from './bcp-adapter.ts';
import type { RawBatch } from '../../import-types.ts';
import {
  decodeUtf8,
  DEFAULT_MAX_RECORD_BYTES,
  InputTooLargeError,
  NotUtf8Error,
  readFileBounded,
} from '../../input-text.ts';
import { emptyRawBatch } from '../../import-types.ts';
import { matchRosters, playersWithoutList, rosterFiles } from '../roster/roster-attach.ts';
import {
  BCP_PARTS,
  isExportFolder,
  pagesNote,
  pagesOf,
  readPart,
  unwrapPart,
} from './bcp-pages.ts';
import type { RosterPlayer } from '../roster/roster-attach.ts';

const ROSTERS = 'rosters';

/** An export found on disk: a folder of three files, or one combined file. */
type Found = { kind: 'folder'; dir: string } | { kind: 'file'; path: string };

/**
 * Export folders under `path` (itself, or the folders below it), or `path` as one file; entries
 * that cannot be used are file rejects of their own (docs/import-formats.md#folders).
 */
async function findExports(path: string): Promise<{ found: Found[]; rejects: Reject[] }> {
  if (!(await stat(path)).isDirectory()) return { found: [{ kind: 'file', path }], rejects: [] };
  const { paths, rejects } = await findFolders(
    path,
    isExportFolder,
    (name) => name === ROSTERS || (BCP_PARTS as readonly string[]).includes(name),
  );
  return { found: paths.map((dir) => ({ kind: 'folder', dir })), rejects };
}

async function readJson(path: string, limit: number, regularOnly = false): Promise<unknown> {
  // Over the limit throws InputTooLargeError, which fails the import (docs/import-formats.md#size-limits).
  const text = decodeUtf8(await readFileBounded(path, limit, { regularOnly }));
  if (text.trim() === '') throw new Error('the file is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`malformed JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads one export, its parts as documents or as the app's pages (src/ingest/formats/bcp/bcp-pages.ts); a
 * file that cannot be read rejects the export whole, naming the file.
 */
async function readExport(found: Found, limit: number): Promise<BcpExport> {
  if (found.kind === 'folder') {
    const parts = await Promise.all(
      BCP_PARTS.map((part) =>
        readPart(found.dir, part, limit).catch((error: Error) => {
          if (error instanceof InputTooLargeError) throw error;
          throw Object.assign(new Error(error.message), {
            source: join(found.dir, `${part}.json`),
            ...(error instanceof NotUtf8Error ? { line: error.line } : {}),
          });
        }),
      ),
    );
    const [event, players, pairings] = parts;
    return {
      event: event.value,
      players: players.value,
      pairings: pairings.value,
      sources: { event: event.source, players: players.source, pairings: pairings.source },
      pages: pagesNote(parts),
    };
  }
  const doc = (await readJson(found.path, limit)) as Record<string, unknown> | null;
  if (
    doc === null ||
    typeof doc !== 'object' ||
    Array.isArray(doc) ||
    !('event' in doc) ||
    !('pairings' in doc)
  ) {
    throw new Error('expected an object with the keys "event", "players" and "pairings"');
  }
  const at = (key: string) => `${found.path} ${key}`;
  const parts = BCP_PARTS.map((part) => {
    const value = part === 'players' ? (doc.players ?? []) : doc[part];
    const pages = pagesOf(value);
    return pages === null
      ? { value, pages: null, records: 0, dropped: 0, source: at(part) }
      : unwrapPart(part, pages, at(part));
  });
  const [event, players, pairings] = parts;
  return {
    event: event.value,
    players: players.value,
    pairings: pairings.value,
    sources: { event: at('event'), players: at('players'), pairings: at('pairings') },
    pages: pagesNote(parts),
  };
}

/**
 * Which system an export's games belong to: `--system` when given, else the system the export
 * names (matched to a stored system by id or name), else the store's only system. A system the
 * store does not know is declared without score rules, named as the export names it.
 */
export class BcpSystems {
  /** Systems made up for exports: declared again by every export that uses them. */
  private readonly created = new Set<string>();

  private readonly known: GameSystem[];
  private readonly option: string | undefined;
  constructor(known: GameSystem[], option: string | undefined) {
    this.known = known;
    this.option = option;
  }

  /** The system, and whether this batch must declare it; a string says why there is none. */
  resolve(exportName: string | null): { system: BcpSystem; declare: GameSystem | null } | string {
    const slug = (s: string) =>
      nameKey(s)
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '');
    const wanted = this.option ?? exportName;
    if (wanted === null) {
      if (this.known.length === 1) return { system: this.system(this.known[0]), declare: null };
      return 'the export names no game system and the store holds several (or none): pass --system';
    }
    const key = nameKey(wanted);
    const found = this.known.find(
      (s) =>
        s.id === wanted ||
        nameKey(s.id) === key ||
        nameKey(s.name) === key ||
        s.id === slug(wanted),
    );
    // A made-up system is written only with an event that uses it, so an export whose event is
    // rejected leaves it unwritten and the next export declares it again.
    if (found !== undefined)
      return { system: this.system(found), declare: this.created.has(found.id) ? found : null };
    const id = this.option ?? slug(wanted);
    const created: GameSystem = { id, name: cleanName(exportName ?? id) };
    this.known.push(created);
    this.created.add(id);
    return { system: { id, score: null }, declare: created };
  }

  private system(s: GameSystem): BcpSystem {
    return { id: s.id, score: (s.score as ScoreRules | null | undefined) ?? null };
  }
}

function gameSystemName(event: unknown): string | null {
  if (event === null || typeof event !== 'object') return null;
  const e = event as Record<string, unknown>;
  const system = e.gameSystem;
  const name =
    typeof system === 'object' && system !== null
      ? (system as Record<string, unknown>).name
      : (e.gameSystemName ?? system);
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}

/** The players of an export (id and name) as rosters are matched against them. */
function rosterPlayers(batch: RawBatch): RosterPlayer[] {
  return batch.players.map((r) => {
    const p = r.value as { id: string; name?: string };
    return { id: p.id, name: p.name ?? null };
  });
}

function notesFor(t: BcpTally): string[] {
  return [
    ...(t.byes > 0 ? [`${t.byes} bye(s): no game`] : []),
    ...(t.unplayed > 0
      ? [`${t.unplayed} pairing(s) without any result: paired, not played yet`]
      : []),
    ...(t.dropped > 0 ? [`${t.dropped} dropped player(s), kept with the rounds they played`] : []),
    ...(t.pointsLeftOut > 0
      ? [
          `${t.pointsLeftOut} game(s) whose game points the system's score rules do not take: results kept, points left out`,
        ]
      : []),
  ];
}

/** Adds one export (and its rosters, when its folder has a `rosters/` folder) to the batch. */
async function addFound(
  batch: RawBatch,
  found: Found,
  systems: BcpSystems,
  limit: number,
): Promise<number> {
  let x: BcpExport;
  try {
    x = await readExport(found, limit);
  } catch (error) {
    if (error instanceof InputTooLargeError) throw error;
    const source =
      (error as { source?: string }).source ?? (found.kind === 'file' ? found.path : found.dir);
    const line = (error as { line?: unknown }).line;
    batch.rejects.push({
      kind: 'file',
      source,
      record: typeof line === 'number' ? `line ${line}` : null,
      field: null,
      reason: `cannot read: ${(error as Error).message}`,
      payload: null,
    });
    return 0;
  }
  const resolved = systems.resolve(gameSystemName(x.event));
  if (typeof resolved === 'string') {
    batch.rejects.push({
      kind: 'event',
      source: x.sources.event,
      record: null,
      field: null,
      reason: resolved,
      payload: x.event ?? null,
    });
    return 0;
  }
  if (resolved.declare !== null) {
    batch.systems.push({
      source: x.sources.event,
      record: `system ${resolved.declare.id}`,
      value: resolved.declare,
      implied: true,
      note: `new system ${resolved.declare.id} ("${resolved.declare.name}") without score rules: game points taken as scores`,
    });
  }
  let lists = new Map<string, ArmyList>();
  // No rosters folder is the usual case, and no reject.
  const rosters =
    found.kind === 'folder'
      ? await rosterFiles([join(found.dir, ROSTERS)]).catch(() => null)
      : null;
  if (rosters !== null) batch.rejects.push(...rosters.rejects);
  const files = rosters?.files ?? null;
  if (files !== null) {
    // Rosters are matched to the players, so the export is mapped once without lists first.
    const probe = emptyRawBatch(true);
    const { eventId } = addBcpExport(probe, x, resolved.system);
    const players = rosterPlayers(probe);
    const match = await matchRosters(files, players, eventId);
    batch.rejects.push(...match.rejects);
    batch.notes.push(...match.notes);
    lists = match.lists;
    const missing = playersWithoutList(eventId, players, lists);
    if (missing !== null) batch.notes.push(missing);
  }
  const tally = addBcpExport(batch, x, resolved.system, lists);
  const notes = [...(x.pages ? [x.pages] : []), ...notesFor(tally)];
  batch.notes.push(...notes.map((n) => `event "${tally.eventId}": ${n}`));
  return tally.games;
}

/**
 * The batches of pairing-app exports under `paths`, about `batchGames` games each (one
 * transaction each); an unreadable path is a file reject.
 */
export async function* bcpBatches(
  paths: string[],
  systems: BcpSystems,
  batchGames: number,
  maxFileBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<RawBatch> {
  let batch = emptyRawBatch(true);
  let games = 0;
  for (const path of paths) {
    let found: Found[];
    try {
      const exports = await findExports(path);
      batch.rejects.push(...exports.rejects);
      found = exports.found;
      if (found.length === 0) throw new Error('no event.json in this folder or below it');
    } catch (error) {
      batch.rejects.push({
        kind: 'file',
        source: path,
        record: null,
        field: null,
        reason: `cannot read: ${(error as Error).message}`,
        payload: null,
      });
      continue;
    }
    for (const f of found) {
      games += await addFound(batch, f, systems, maxFileBytes);
      if (games >= batchGames) {
        yield batch;
        batch = emptyRawBatch(true);
        games = 0;
      }
    }
  }
  yield batch;
}
