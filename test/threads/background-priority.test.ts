/**
 * A loading thread steps back for the serving thread (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * on Linux it lowers its own priority, and only its own.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startThread } from '../../src/threads/start-thread.ts';
import { LOADING_NICE } from '../../src/threads/background-priority.ts';
import { threadNice } from '../support/nice-probe.ts';

const linux = existsSync('/proc/thread-self/stat');

describe('loading threads in the background', () => {
  it(
    'lowers the loading thread to nice 10 and leaves the serving thread as it was',
    { skip: linux ? false : 'no per-thread priority to read here (not Linux): skipped' },
    async () => {
      const before = threadNice();
      const worker = startThread(new URL('../support/nice-probe.ts', import.meta.url));
      const answer = await new Promise<{ lowered: boolean; nice: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      await worker.terminate();
      assert.equal(answer.lowered, true);
      assert.equal(answer.nice, Math.max(before, LOADING_NICE));
      assert.equal(threadNice(), before);
    },
  );
});
