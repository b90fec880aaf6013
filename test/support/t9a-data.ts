/**
 * The full T9A data set from ../shared (CI has it; a user's clone does not): unpacked once per
 * test process into a temporary folder. Returns null, for the test to skip, when it is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

let unpacked: string | null = null;

/** The unpacked `data` folder, or null when ../shared/data/t9a is absent. */
export function fullT9aData(): string | null {
  if (unpacked !== null) return unpacked;
  if (!existsSync(T9A_ARCHIVE)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'muster-t9a-'));
  execFileSync('tar', ['-xJf', T9A_ARCHIVE, '-C', dir]);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  unpacked = join(dir, 'data');
  if (readdirSync(unpacked).length === 0)
    throw new Error(`unpacking ${T9A_ARCHIVE} gave no tournaments`);
  return unpacked;
}
