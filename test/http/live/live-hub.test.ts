/**
 * The live hub's fan-out (src/http/live/live-hub.ts, docs/operations.md#live-fan-out): a change
 * to many streams is written a slice at a time, so the event loop turns between slices, and
 * every stream still reads the changes in the order they came.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveHub } from '../../../src/http/live/live-hub.ts';
import type { LiveSink } from '../../../src/http/live/live-hub.ts';

/** A stream that keeps what it is written. */
function sink(): LiveSink & { chunks: string[] } {
  const chunks: string[] = [];
  return {
    chunks,
    writableLength: 0,
    write: (chunk: string) => (chunks.push(chunk), true),
    end: () => undefined,
    destroy: () => undefined,
  };
}

describe('the live hub', () => {
  it('lets the event loop turn while it writes a change to many streams, in order on each', async () => {
    const hub = new LiveHub({ heartbeatMs: 3_600_000, bufferBytes: 1 << 20, perClient: 1 << 20 });
    const streams = Array.from({ length: 2_000 }, () => sink());
    for (const s of streams) hub.subscribe(s, 'client', null);
    hub.publish({ id: 2, since: 1, events: ['a'] });
    hub.publish({ id: 3, since: 2, events: ['b'] });
    // A turn of the loop comes before the last stream has its first change.
    await new Promise((done) => setImmediate(done));
    assert.ok(streams.at(-1)!.chunks.every((c) => !c.includes('event: change')));
    for (let i = 0; i < 100 && !streams.at(-1)!.chunks.some((c) => c.startsWith('id: 3')); i++) {
      await new Promise((done) => setImmediate(done));
    }
    for (const s of streams) {
      const changes = s.chunks.filter((c) => c.includes('event: change'));
      assert.deepEqual(
        changes.map((c) => c.split('\n')[0]),
        ['id: 2', 'id: 3'],
      );
    }
    hub.close();
  });
});
