/**
 * A SQLite file holding the demo data set `muster serve --seed-if-empty` imports, for tests
 * that start `muster serve` over demo data without testing the seeding itself (test/cli/serve.test.ts
 * does): importing it takes seconds of CPU, so a test pass does it once and each server gets a
 * copy (docs/operations.md#tests).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo } from '../../src/cli/seed-demo.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import { buildOnce, passName } from './build-once.ts';

let built: Promise<string> | null = null;

async function seedInto(file: string): Promise<void> {
  const store = await openMigratedStore(`sqlite:${file}`);
  try {
    await seedDemo(store);
  } finally {
    await store.close();
  }
  // Closing the last connection checkpoints the WAL into the file; a copy of the file alone
  // would otherwise miss rows.
  if (existsSync(`${file}-wal`)) throw new Error(`${file}-wal is left after closing`);
}

async function seededFile(): Promise<string> {
  const run = passName();
  if (run === null) {
    const dir = mkdtempSync(join(tmpdir(), 'muster-demo-db-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'demo.db');
    await seedInto(file);
    return file;
  }
  const file = join(tmpdir(), `muster-test-${run}-demo.db`);
  await buildOnce(file, seedInto);
  return file;
}

/** Copies the pass's seeded demo database to `path` (a SQLite file that does not exist yet). */
export async function copySeededDemo(path: string): Promise<void> {
  built ??= seededFile();
  copyFileSync(await built, path);
}
