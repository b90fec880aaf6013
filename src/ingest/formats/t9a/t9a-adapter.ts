/**
 * The Ninth Age Data Project layout (docs/import-formats.md#t9a-the-ninth-age-data-project):
 * `<tournament>/metaData.json` and `<tournament>/report_<matchId>.json`, mapped onto the
 * canonical model. Scores and results are left to validation, which rejects off-scale reports.
 */
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ArmyList, EventStatus, Game, Side } from '../../../domain/model.ts';
import { findFolders } from '../../folder-walk.ts';
import {
  decodeUtf8,
  DEFAULT_MAX_RECORD_BYTES,
  InputTooLargeError,
  NotUtf8Error,
  readFileBounded,
} from '../../input-text.ts';
import type { RawBatch } from '../../import-types.ts';
import { T9A_FACTIONS, T9A_SYSTEM } from './t9a-system.ts';

type Json = Record<string, unknown>;

const STATUS: Record<number, EventStatus> = {
  0: 'scheduled',
  1: 'scheduled',
  2: 'ongoing',
  3: 'completed',
};

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;

/**
 * An option's type as the list means it: the Data Project's builder offers a character's
 * "Light Troops" among its mounts (the choice of going without one), but it is a model rule, which
 * the same data types "Other" elsewhere (docs/import-formats.md#t9a-the-ninth-age-data-project).
 */
function optionType(name: string, type: string): string {
  return type.trim() === 'Mount' && name.trim() === 'Light Troops' ? 'Other' : type;
}

function list(raw: unknown): ArmyList | null {
  if (raw === null || typeof raw !== 'object' || !Array.isArray((raw as Json).units)) return null;
  const units = ((raw as Json).units as Json[]).map((u) => ({
    name: String(u.name ?? ''),
    category: String(u.category ?? ''),
    cost: typeof u.cost === 'number' ? u.cost : null,
    models: typeof u.models === 'number' ? u.models : null,
    options: Array.isArray(u.options)
      ? (u.options as Json[]).map((o) => ({
          name: String(o.name ?? ''),
          type: optionType(String(o.name ?? ''), String(o.type ?? '')),
        }))
      : [],
  }));
  const points = units.reduce((sum, u) => sum + (u.cost ?? 0), 0);
  return { points, units };
}

/** Maps one report to a canonical game (player one is side 0). */
export function t9aReportToGame(report: Json, fallbackId: string | null): unknown {
  const id = text(report.id_match) ?? text(report.id) ?? fallbackId;
  const setup = (report.setup ?? {}) as Json;
  const firstTurn = report.firstTurn === 0 || report.firstTurn === 1 ? report.firstTurn : null;
  const primary =
    report.primary === 0 || report.primary === 1 || report.primary === 2 ? report.primary : null;
  const side = (i: 0 | 1): Side => {
    const p = i === 0 ? 'One' : 'Two';
    return {
      player: text(report[`player${p}Id`]),
      faction: String(report[`army${p}`] ?? ''),
      score: typeof report[`score${p}`] === 'number' ? (report[`score${p}`] as number) : null,
      firstTurn: firstTurn === null ? null : firstTurn === i,
      primaryAchieved: primary === null ? null : primary === i,
      secondary: text(setup[`secondaryPlayer${p}`]),
      secondaryAchieved:
        typeof report[`secondaryPlayer${p}`] === 'boolean'
          ? (report[`secondaryPlayer${p}`] as boolean)
          : null,
      list: list(report[`armyList${p}`]),
    };
  };
  const game: Omit<Game, 'id'> & { id: string | null } = {
    id,
    scenario: {
      map: text(setup.map),
      deployment: text(setup.deployment),
      primary: text(setup.primary),
    },
    sides: [side(0), side(1)],
  };
  return game;
}

/**
 * The id of a report that has none: its tournament and its file name
 * (docs/import-formats.md#t9a-the-ninth-age-data-project).
 */
export function derivedReportId(tournamentId: string, fileName: string): string {
  return `t9a:${tournamentId}:${basename(fileName, '.json')}`;
}

export interface T9aProgress {
  tournaments: number;
  reports: number;
}

/** Reads a T9A data folder into a raw batch; unreadable or malformed files become rejects. */
export async function addT9aFolder(
  batch: RawBatch,
  path: string,
  onProgress?: (p: T9aProgress) => void,
  maxFileBytes = DEFAULT_MAX_RECORD_BYTES,
): Promise<void> {
  const progress: T9aProgress = { tournaments: 0, reports: 0 };
  const readJson = async (file: string): Promise<Json | null> => {
    try {
      const raw = decodeUtf8(await readFileBounded(file, maxFileBytes, { regularOnly: true }));
      if (raw.trim() === '') throw new Error('the file is empty');
      const value = JSON.parse(raw) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new Error('expected a JSON object');
      }
      return value as Json;
    } catch (error) {
      if (error instanceof InputTooLargeError) throw error;
      batch.rejects.push({
        kind: 'file',
        source: file,
        record: error instanceof NotUtf8Error ? `line ${error.line}` : null,
        field: null,
        reason:
          error instanceof NotUtf8Error
            ? error.message
            : `cannot read: ${(error as Error).message}`,
        payload: null,
      });
      return null;
    }
  };

  // A tournament is a folder holding metaData.json: the path itself, or folders below it.
  const { paths: dirs, rejects } = await findFolders(path, (names) =>
    names.includes('metaData.json'),
  );
  batch.rejects.push(...rejects);
  if (dirs.length === 0)
    throw new Error(
      'no tournament folder (a folder with metaData.json) in this folder or below it',
    );
  const eventsBefore = batch.events.length;
  for (const dir of dirs) {
    const meta = await readJson(join(dir, 'metaData.json'));
    const reportFiles = (await readdir(dir)).filter((n) => /^report_.*\.json$/.test(n)).sort();
    if (meta === null) continue;
    const eventId = text(meta._id) ?? basename(dir);
    const games: unknown[] = [];
    const gameOrigins: Array<{ source: string; payload: unknown }> = [];
    // Reports are small and many: read them a few dozen at a time rather than one by one.
    const reports: Array<Json | null> = [];
    for (let i = 0; i < reportFiles.length; i += 64) {
      reports.push(
        ...(await Promise.all(reportFiles.slice(i, i + 64).map((n) => readJson(join(dir, n))))),
      );
    }
    reportFiles.forEach((name, i) => {
      const report = reports[i];
      progress.reports++;
      if (progress.reports % 2000 === 0) onProgress?.(progress);
      if (report === null) return;
      const game = t9aReportToGame(report, null) as { id: string | null };
      if (game.id === null) {
        // The publisher counts reports without an id_match (report_undefined.json): an id made
        // of the tournament and the file name is stable, so they import and re-import as one.
        game.id = derivedReportId(eventId, name);
        batch.derivedIds++;
      }
      games.push(game);
      gameOrigins.push({ source: join(dir, name), payload: report });
    });
    const status = typeof meta.status === 'number' ? STATUS[meta.status] : undefined;
    batch.events.push({
      source: join(dir, 'metaData.json'),
      record: `tournament ${String(meta._id ?? basename(dir))}`,
      value: {
        id: eventId,
        system: T9A_SYSTEM.id,
        name: text(meta.name) ?? basename(dir),
        start: meta.start,
        end: meta.end ?? null,
        status: status ?? 'completed',
        format: meta.type === 1 ? 'teams' : 'singles',
        tier: 'standard',
        participants: typeof meta.size === 'number' ? meta.size : null,
        games,
      },
      gameOrigins,
    });
    progress.tournaments++;
  }
  onProgress?.(progress);
  // The system and its armies come with the data: a folder of which no tournament could be read
  // declares nothing, so a failed import leaves the store as it was
  // (docs/import-formats.md#one-transaction).
  if (batch.events.length > eventsBefore && !batch.systems.some((s) => s.source === 't9a')) {
    batch.systems.push({ source: 't9a', record: 'system t9a', value: T9A_SYSTEM });
    for (const f of T9A_FACTIONS)
      batch.factions.push({ source: 't9a', record: `faction ${f.id}`, value: f });
  }
}
