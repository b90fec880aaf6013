/**
 * Warnings that come in floods (docs/operations.md#logs): a burst of refusals is one warning at
 * once and one summary per interval with its count, never a line (or a stack) per request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { ThrottledLog } from '../../src/http/throttled-log.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';

interface Line {
  level: string;
  detail: Record<string, unknown>;
  message: string;
}

function recorder(lines: Line[]): FastifyBaseLogger {
  const at =
    (level: string) =>
    (detail: Record<string, unknown>, message: string): void => {
      lines.push({ level, detail, message });
    };
  const logger = {
    level: 'info',
    warn: at('warn'),
    error: at('error'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
    silent: () => undefined,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

describe('a throttled warning', () => {
  it('logs the first event of a kind at once and the rest as one count when the interval ends', async () => {
    const lines: Line[] = [];
    const log = new ThrottledLog(recorder(lines), 50);
    for (let i = 0; i < 1000; i++) log.note('request-busy', 'requests refused');
    log.note('connections-full', 'connection refused');
    assert.equal(lines.length, 2);
    assert.deepEqual(
      lines.map((l) => [l.level, l.detail.event, l.detail.count]),
      [
        ['warn', 'request-busy', 1],
        ['warn', 'connections-full', 1],
      ],
    );
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(lines.length, 3);
    assert.equal(lines[2].detail.count, 999);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(lines.length, 3, 'a quiet interval logs nothing');
  });
});

describe('503 busy in the log', () => {
  it('logs a burst of refusals as a warning without a stack, never as an error', async () => {
    const lines: Line[] = [];
    const thread = new EnginePool({ maxQueued: 2, maxExpensiveQueued: 1 });
    const t = await buildTestApp({
      seed: generateDemo({ today: '2026-06-01' }),
      shared: true,
      engineThread: thread,
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    try {
      const answers = await Promise.all(
        [0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.37, 0.38].map((tau) =>
          t.app.inject({
            method: 'POST',
            url: '/api/rankings',
            headers: { origin: TEST_ORIGIN },
            payload: { glicko2: { tau } },
          }),
        ),
      );
      const refused = answers.filter((r) => r.statusCode === 503).length;
      assert.ok(refused >= 5, `${refused} refused`);
      const logged = lines as unknown as Array<{ level: number; msg: string; err?: unknown }>;
      assert.equal(logged.filter((l) => l.level >= 50).length, 0, 'no error lines');
      const busy = logged.filter((l) => /503 busy/.test(l.msg));
      assert.equal(busy.length, 1);
      assert.equal(busy[0].level, 40);
      assert.equal(busy[0].err, undefined);
    } finally {
      await t.close();
      await thread.close();
    }
  });
});
