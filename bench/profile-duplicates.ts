/**
 * The suggestion pass alone (docs/operations.md#player-merges): `node bench/profile-duplicates.ts
 * --db URL [--system ID] [--runs 7] [--snapshot-file FILE] [--pairs OUT.json]` loads the store's
 * snapshot as `muster serve` does (read back from FILE when it was written from the same data),
 * then times the first pass (which builds the pass's caches) and `runs` more at the default score and prints the median, the fastest, the number of
 * pairs and a SHA-256 of the answer's pairs, so that two versions of the pass can be compared on
 * one data set. Run under `node --cpu-prof` to see where the pass spends its time.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_MIN_SCORE, playerDuplicates } from '../src/engine/players/player-duplicates.ts';
import { loadersEnded, loadSnapshotInWorker } from '../src/threads/load-snapshot-host.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    system: { type: 'string' },
    runs: { type: 'string', default: '7' },
    'snapshot-file': { type: 'string' },
    pairs: { type: 'string' },
  },
});
if (values.db === undefined) throw new Error('--db URL: the store (sqlite:FILE or postgres://…)');
const runs = Math.max(1, Math.min(100, Number(values.runs)));

let started = performance.now();
const snapshot = await loadSnapshotInWorker(values.db, { file: values['snapshot-file'] ?? null });
await loadersEnded();
console.error(`snapshot: ${(performance.now() - started).toFixed(0)} ms`);
const system = values.system ?? snapshot.systems[0].id;
const request = { system, minScore: DEFAULT_MIN_SCORE };

const times: number[] = [];
started = performance.now();
let pairs = playerDuplicates(snapshot, request).data.pairs;
const firstMs = performance.now() - started;
for (let i = 0; i < runs; i++) {
  started = performance.now();
  pairs = playerDuplicates(snapshot, request).data.pairs;
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const text = JSON.stringify(pairs);
const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
if (values.pairs !== undefined) writeFileSync(values.pairs, text);
console.log(
  `system ${system}: ${pairs.length} pairs (sha256 ${digest}), ${runs} runs, ` +
    `first (builds the caches) ${firstMs.toFixed(1)} ms, ` +
    `median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, fastest ${times[0].toFixed(1)} ms`,
);
