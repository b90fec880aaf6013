/**
 * Writes a validated batch in one transaction (docs/import-formats.md#idempotence): records with
 * a known id replace their previous version, unchanged records (same content hash) are left
 * alone, so importing the same input twice changes no row. The data version moves only when
 * something changed.
 */
import type { Transaction } from 'kysely';
import type { ImportCounts, Reject, ValidBatch } from '../domain/import-batch.ts';
import { zeroCounts } from '../domain/import-batch.ts';
import { emptyListRows, insertBuffer, insertChunked } from './insert-rows.ts';
import type { ListRows } from './insert-rows.ts';
import type { Database } from './schema.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';
import { bumpDataVersion } from './store.ts';
import { deleteGames, gameRowsFor, writeEvents } from './write-events.ts';
import { writeImportRecordUpdate } from './write-import-record.ts';
import { writeImportedMerges } from './player-merges.ts';
import type { ImportRecordUpdate } from './write-import-record.ts';
import { writeFactions, writePlayers, writeScenarios, writeSystems } from './write-reference.ts';

export interface WriteResult {
  counts: ImportCounts;
  dataVersion: number;
}

async function currentDataVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'data_version')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

async function writeRejects(
  trx: Transaction<Database>,
  rejects: Reject[],
  importId: number,
): Promise<void> {
  const now = new Date().toISOString();
  await insertChunked(
    trx,
    'rejects',
    rejects.map((r) => ({
      import_id: importId,
      source: r.source,
      record: r.record,
      field: r.field,
      reason: r.reason,
      payload: r.payload === undefined ? null : JSON.stringify(r.payload),
      created_at: now,
    })),
  );
}

export interface WriteBatchOptions {
  /** false: only the rejects are written (a refused or failed import). */
  writeData: boolean;
  /**
   * What the import's own record says, given what was written: the caller decides it, and it is
   * written last inside the same transaction, so the record can never disagree with the data
   * (docs/operations.md#import-records). No transaction handle leaves the store.
   */
  record?: (result: WriteResult) => ImportRecordUpdate;
}

/** Writes the batch and its rejects in one transaction; nothing of it lands if anything throws. */
export async function writeBatch(
  target: StoreOrHandle,
  batch: ValidBatch,
  rejects: Reject[],
  importId: number,
  options: WriteBatchOptions = { writeData: true },
): Promise<WriteResult> {
  return handleOf(target)
    .transaction()
    .execute(async (trx) => {
      const result = await writeInTransaction(trx, batch, rejects, importId, options.writeData);
      if (options.record !== undefined)
        await writeImportRecordUpdate(trx, importId, options.record(result));
      return result;
    });
}

async function writeInTransaction(
  trx: Transaction<Database>,
  batch: ValidBatch,
  rejects: Reject[],
  importId: number,
  writeData: boolean,
): Promise<WriteResult> {
  const counts = zeroCounts();
  await writeRejects(trx, rejects, importId);
  if (!writeData) return { counts, dataVersion: await currentDataVersion(trx) };

  // Reference data is written only where it differs, so a repeated import stays a no-op.
  const touchedSystems = await writeSystems(trx, batch.systems);
  const touchedFactions = await writeFactions(trx, batch.factions);
  const touchedScenarios = await writeScenarios(trx, batch.scenarios);
  await writePlayers(trx, batch.players, counts);

  const listRows: ListRows = emptyListRows();
  const entryRows = await writeEvents(trx, batch.events, counts, listRows);
  const games = await gameRowsFor(trx, batch.events, counts, listRows);
  await deleteGames(trx, games.replaced);
  await insertChunked(trx, 'entries', entryRows);
  await insertBuffer(trx, games.games);
  await insertBuffer(trx, games.sides);
  await insertBuffer(trx, listRows.lists);
  await insertBuffer(trx, listRows.units);
  await insertBuffer(trx, listRows.options);
  await insertBuffer(trx, listRows.configuration);
  // After players, so a merge's players are rows by then.
  const mergesChanged = await writeImportedMerges(
    trx,
    batch.playerMerges.map((m) => m.merge),
    counts.merges,
  );

  const changed =
    counts.events.imported +
      counts.events.updated +
      counts.games.imported +
      counts.games.updated +
      counts.players.imported +
      counts.players.updated >
      0 ||
    mergesChanged > 0 ||
    touchedSystems ||
    touchedFactions ||
    touchedScenarios;
  const dataVersion = changed ? await bumpDataVersion(trx) : await currentDataVersion(trx);
  return { counts, dataVersion };
}
