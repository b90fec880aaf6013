/**
 * The profile splitter of bench/profile-t9a.ts (docs/architecture.md#where-an-answers-cpu-goes):
 * a sample counts for the innermost frame on its stack that names a kind, a compiled function
 * without a file for its caller's, and only samples inside a segment count, per request.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitProfiles } from '../../bench/profile-split.ts';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
});

/** root > handler (route) > answerBytes (serialisation) > compiled serialiser (no file). */
const PROFILE = {
  nodes: [
    frame(1, '(root)', '', [2, 5]),
    frame(2, 'handler', 'file:///m/src/http/routes/stats-route.ts', [3]),
    frame(3, 'answerBytes', 'file:///m/src/http/engine-thread/answer-bytes.ts', [4]),
    frame(4, 'anonymous12', ''),
    frame(5, '(idle)', ''),
  ],
  startTime: 1_000,
  // Samples at 1,100, 1,200, 1,300, 1,400 and 1,500 µs, each weighing the 100 µs to the next.
  samples: [2, 4, 3, 5, 2, 2],
  timeDeltas: [100, 100, 100, 100, 100, 100],
};

describe('profile split', () => {
  it('counts each sample for the innermost kind on its stack, per request of its segment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-profile-split-'));
    try {
      const file = join(dir, 'one.cpuprofile');
      writeFileSync(file, JSON.stringify(PROFILE));
      const table = splitProfiles(
        [file],
        [{ name: 'route', startUs: 1_100, endUs: 1_500, requests: 2 }],
      );
      const row = (kind: string) =>
        table.split('\n').find((line) => line.startsWith(`| ${kind} |`));
      // 1,100 (handler) is the route's own code; 1,200 (the compiled serialiser) and 1,300
      // (answerBytes) are serialisation; 1,400 is idle and 1,500 outside the segment.
      assert.equal(row('framework and route'), '| framework and route | 0.050 |');
      assert.equal(row('serialisation'), '| serialisation | 0.100 |');
      assert.equal(row('idle'), undefined);
      assert.equal(row('**all**'), '| **all** | 0.150 |');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
