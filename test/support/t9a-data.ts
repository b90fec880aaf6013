/**
 * The full T9A data set from ../shared (CI has it; a user's clone does not), unpacked once per
 * test pass. Returns null, for the test to skip, when it is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { importSources } from '../../src/ingest/import-sources.ts';
import { buildOnce, passName } from './build-once.ts';
import { sharedStore } from './shared-store.ts';
import type { TestStore } from './test-store.ts';

export const T9A_ARCHIVE = resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'data',
  't9a',
  't9a-data-until-2026-04-19.tar.xz',
);
export const T9A_SKIP_REASON = `the full T9A data set is not here (${T9A_ARCHIVE}); only the committed slice is tested`;

let unpacked: Promise<string | null> | null = null;

/**
 * The unpacked `data` folder, or null when ../shared/data/t9a is absent. Unpacking takes seconds
 * (15,536 small files), so within a test pass it is done once, by the first process to ask, into
 * a folder the runner removes after the pass; a file run on its own unpacks into a folder of its
 * own.
 */
export function fullT9aData(): Promise<string | null> {
  unpacked ??= unpack();
  return unpacked;
}

async function unpack(): Promise<string | null> {
  if (!existsSync(T9A_ARCHIVE)) return null;
  const run = passName();
  let dir: string;
  if (run === null) {
    dir = mkdtempSync(join(tmpdir(), 'muster-t9a-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    execFileSync('tar', ['-xJf', T9A_ARCHIVE, '-C', dir]);
  } else {
    dir = join(tmpdir(), `muster-test-${run}-t9a-data`);
    await buildOnce(dir, (building) => {
      mkdirSync(building);
      execFileSync('tar', ['-xJf', T9A_ARCHIVE, '-C', building]);
      return Promise.resolve();
    });
  }
  const data = join(dir, 'data');
  if (readdirSync(data).length === 0)
    throw new Error(`unpacking ${T9A_ARCHIVE} gave no tournaments`);
  return data;
}

/**
 * A store holding the whole T9A set, imported once per test pass and shared by the test files
 * that only read it (shared-store.ts). Null when the set is absent. Never write to it.
 */
export async function sharedT9aStore(): Promise<TestStore | null> {
  if (!existsSync(T9A_ARCHIVE)) return null;
  return sharedStore('t9a', async (store) => {
    const data = await fullT9aData();
    await importSources(store, [data as string], { format: 't9a' });
  });
}
