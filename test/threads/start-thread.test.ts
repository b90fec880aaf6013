/**
 * The one way a thread starts (docs/architecture.md#threads): a bundled entry that cannot be
 * bundled is a ThreadStartError, every time, never a thread started some other way; an engine
 * pool whose threads cannot start says so to whoever waits on it and stays consistent.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import { cachedBundle } from '../../src/threads/bundle-cache.ts';
import { ThreadStartError, startThread } from '../../src/threads/start-thread.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-start-thread-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A module in the temporary folder holding `source`, as a URL. */
function moduleOf(name: string, source: string): URL {
  const path = join(dir, name);
  writeFileSync(path, source);
  return pathToFileURL(path);
}

/** A module that imports one that is not there: esbuild cannot bundle it. */
const unbundlable = moduleOf('unbundlable.ts', "import './not-there.ts';\n");

describe('startThread', () => {
  it('runs a bundled entry as one module', async () => {
    const entry = moduleOf(
      'hello.ts',
      [
        "import { parentPort } from 'node:worker_threads';",
        'const greeting: string = `hello from ${typeof process}`;',
        'parentPort!.postMessage(greeting);',
      ].join('\n'),
    );
    const worker = startThread(entry, { bundled: true });
    const [message] = (await once(worker, 'message')) as [string];
    await worker.terminate();
    assert.equal(message, 'hello from object');
  });

  it('runs a TypeScript entry as it is, its types stripped by Node, importing another .ts module', async () => {
    moduleOf('shout.ts', 'export const shout = (s: string): string => s.toUpperCase();\n');
    const entry = moduleOf(
      'plain.ts',
      [
        "import { parentPort } from 'node:worker_threads';",
        "import { shout } from './shout.ts';",
        "const greeting: string = shout('as it is');",
        'parentPort!.postMessage(greeting);',
      ].join('\n'),
    );
    const worker = startThread(entry);
    const [message] = (await once(worker, 'message')) as [string];
    await worker.terminate();
    assert.equal(message, 'AS IT IS');
  });

  it('reuses a bundle kept on disk while its sources are unchanged, and builds it again when one changes', () => {
    const cache = join(dir, 'bundles');
    moduleOf('word.ts', "export const word: string = 'first';\n");
    const entry = moduleOf(
      'says.ts',
      "import { word } from './word.ts';\nconsole.log(`says ${word}`);\n",
    );
    const built = cachedBundle(entry, cache);
    assert.match(built, /first/);
    assert.equal(readdirSync(cache).length, 1);
    // Unchanged sources: the same code, from the file (its record's hashes still hold).
    assert.equal(cachedBundle(entry, cache), built);
    // A changed import, even of the same length, is never served from the old bundle.
    moduleOf('word.ts', "export const word: string = 'other';\n");
    const rebuilt = cachedBundle(entry, cache);
    assert.match(rebuilt, /other/);
    assert.doesNotMatch(rebuilt, /first/);
    assert.equal(cachedBundle(entry, cache), rebuilt);
  });

  it('throws a ThreadStartError naming the entry and why when a bundled entry cannot be bundled', () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.throws(
        () => startThread(unbundlable, { bundled: true }),
        (error: unknown) =>
          error instanceof ThreadStartError &&
          error.entry === unbundlable.href &&
          error.message.includes('unbundlable.ts') &&
          error.message.includes('bundling failed') &&
          error.message.includes('not-there.ts'),
      );
    }
  });
});

describe('an engine pool whose threads cannot start', () => {
  it('rejects its start and every task with the ThreadStartError, and holds no task after', async () => {
    const pool = new EnginePool({ threads: 2, entry: unbundlable });
    try {
      await assert.rejects(pool.start(), ThreadStartError);
      // Never posted: the snapshot is not read before the thread has started.
      const snapshot = {} as Snapshot;
      const tasks = [pool.run('warm', snapshot), pool.run('warm', snapshot)];
      for (const task of tasks) await assert.rejects(task, ThreadStartError);
      assert.equal(pool.queued(), 0);
      assert.equal(pool.pressure().running, 0);
      assert.equal(pool.pressure().waiting, 0);
    } finally {
      await pool.close();
    }
  });
});
