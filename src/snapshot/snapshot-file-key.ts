/**
 * The key a snapshot file is written under and must match to be read back
 * (docs/architecture.md#the-snapshot-file): the same store (its id, kept in the store's meta
 * table), at the same data version, built by the same code (every source file, the locked
 * dependencies, V8's serialisation format) with the same derivation.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('..', import.meta.url));
const LOCKFILE = fileURLToPath(new URL('../../package-lock.json', import.meta.url));

let codeHash: string | undefined;

/** A digest of the code that builds a snapshot: a change to any of it makes old files unused. */
function code(): string {
  if (codeHash !== undefined) return codeHash;
  const hash = createHash('sha256').update(process.versions.v8);
  const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') || f.endsWith('.js'))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(join(SOURCE, file)));
  if (existsSync(LOCKFILE)) hash.update(readFileSync(LOCKFILE));
  return (codeHash = hash.digest('hex'));
}

export interface SnapshotFileIdentity {
  /** The store's own id (meta "store_id"): another database with the same version differs. */
  storeId: string;
  dataVersion: number;
  /** The module whose `derive` ran on the snapshot, or null. */
  deriveModule: string | null;
}

/** The key of a snapshot of `identity`'s data built by this code. */
export function snapshotFileKey(identity: SnapshotFileIdentity): string {
  return JSON.stringify({ format: 1, code: code(), ...identity });
}
