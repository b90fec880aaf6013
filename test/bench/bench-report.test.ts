/**
 * The benchmark's report of a run of some sections (docs/operations.md#benchmark): at ten
 * million games each section runs alone and merges into one results file, so the report must
 * show what ran, when and under what load, and leave out what did not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerInfo } from '../../bench/bench-http.ts';
import { renderMarkdown } from '../../bench/bench-report.ts';
import type { BenchResults } from '../../bench/bench-results.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const MIB = 2 ** 20;

function server(workers: number, rssMiB: number): ServerInfo {
  return {
    url: 'http://127.0.0.1:1',
    cachedUrl: 'http://127.0.0.1:2',
    games: 1_000_000,
    loadMs: 10_000,
    readyMs: 15_000,
    longestWarmStepMs: 12,
    rssBytes: rssMiB * MIB,
    heapUsedBytes: 0,
    arrayBuffersBytes: 0,
    snapshotBytes: 300 * MIB,
    workers,
  };
}

const LOAD_ONLY: BenchResults = {
  machine: { cpus: 2, cpuModel: 'test', memoryBytes: 24 * 1024 * MIB, node: 'v20.0.0' },
  games: 1_000_000,
  seconds: 3,
  runs: {
    load: {
      startedAt: '2026-11-25T12:00:00.000Z',
      ms: 40_000,
      loadAverage: { before: [6.5, 5, 4], after: [7, 5.5, 4.2] },
    },
  },
  servers: [server(1, 600), server(2, 620)],
};

describe(`the benchmark report of some sections (${TEST_BACKEND})`, () => {
  it('shows the sections that ran with the load average around them', () => {
    const report = renderMarkdown(LOAD_ONLY);
    assert.match(
      report,
      /\| load \| 2026-11-25T12:00:00.000Z \| 40\.0 s \| 6\.5 \/ 5\.0 \/ 4\.0 \|/,
    );
  });

  it('says each HTTP load ran after an unmeasured warm-up only when it did', () => {
    assert.match(
      renderMarkdown({ ...LOAD_ONLY, warmUpSeconds: 1 }),
      /3 s per HTTP load after 1 s of the same load not measured;/,
    );
    assert.match(renderMarkdown(LOAD_ONLY), /3 s per HTTP load; /);
  });

  it('gives the memory each added engine thread costs', () => {
    assert.match(
      renderMarkdown(LOAD_ONLY),
      /\| 2 \| 1,000,000 \|.*\| 620 MiB \| 20 MiB a thread \|/,
    );
  });

  it('leaves out the sections that did not run', () => {
    const report = renderMarkdown(LOAD_ONLY);
    for (const title of ['## Engine beside SQL', '## HTTP', '## Reload', '## Import']) {
      assert.ok(!report.includes(title), `${title} is in the report`);
    }
  });

  it('puts an engine figure beside the SQL of the same route and filter from another run', () => {
    const report = renderMarkdown({
      ...LOAD_ONLY,
      engine: [{ route: 'scenario', filter: 'all time', engineMedianMs: 2, engineP99Ms: 3 }],
      sql: [{ route: 'scenario', filter: 'all time', sqliteMedianMs: 500, postgresMedianMs: null }],
    });
    assert.match(
      report,
      /\| scenario \| all time \| 2\.00 \| 3\.00 \| 500 \| 250x \| n\/a \| n\/a \|/,
    );
  });
});
