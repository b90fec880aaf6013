/**
 * What the test files of one pass share (docs/operations.md#tests): the runner names the pass in
 * MUSTER_TEST_RUN (scripts/run-tests.mjs) and removes every temp entry named
 * `muster-test-RUN-...` after it.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The pass's name from the runner (scripts/run-tests.mjs), or null for a file run on its own. */
export function passName(): string | null {
  const run = process.env.MUSTER_TEST_RUN;
  return run !== undefined && /^[a-z0-9]+$/.test(run) ? run : null;
}

const SHARED_WAIT_MS = 15 * 60_000;

/**
 * Builds `path` once per pass: the first process to take the lock (a folder beside it) builds it
 * under another name and renames it into place; the others wait until it is there.
 */
export async function buildOnce(
  path: string,
  build: (building: string) => Promise<void>,
): Promise<void> {
  let builder = false;
  try {
    mkdirSync(`${path}.lock`);
    builder = true;
  } catch {
    // Another test process builds it.
  }
  if (builder && !existsSync(path)) {
    const building = `${path}.building`;
    await build(building);
    renameSync(building, path);
  }
  const waitUntil = Date.now() + SHARED_WAIT_MS;
  while (!existsSync(path)) {
    if (Date.now() > waitUntil) throw new Error(`${path} was not built in time`);
    await sleep(250);
  }
}
