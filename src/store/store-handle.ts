/**
 * The query handle a store function runs on (docs/architecture.md#layers): given the store, its
 * own handle; given a handle (a transaction, the probe pool's), that one. Only src/store builds
 * queries, so only src/store reads a store's handle; the layers above pass the store itself.
 */
import { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** A store (src/store/store.ts), or a query handle of one (a transaction, a probe's connection). */
export type StoreOrHandle = { readonly db: Kysely<Database> } | Kysely<Database>;

/** The handle to run a store function's queries on. */
export function handleOf(target: StoreOrHandle): Kysely<Database> {
  return target instanceof Kysely ? target : target.db;
}
