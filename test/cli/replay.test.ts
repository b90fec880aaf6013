/**
 * `muster replay` (docs/operations.md#replaying-an-event): plays a finished event into the
 * store round by round through the import path, ending with the event as the file has it; a bad
 * --every, an event without round numbers and an event the store already holds are refused;
 * SIGTERM stops it between rounds.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { main } from '../../src/cli/main.ts';
import { replayEvent } from '../../src/cli/replay-command.ts';
import { replayDocument, writeReplayFile } from '../support/replay-event-file.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-replay-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const { doc, event } = replayDocument();
const file = writeReplayFile(join(dir, 'event.ndjson'), doc, true);
const rounds = Math.max(...event.games!.map((g) => g.round!));

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    io: { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env: {} },
  };
}

describe(`muster replay (${TEST_BACKEND})`, () => {
  it('plays every round into the store and ends with the event as the file has it', async () => {
    const { store, cleanup } = await openSharedTestStore();
    try {
      const { lines, io } = recorder();
      const before = await store.dataVersion();
      const code = await main(['replay', file, '--every', '100ms', '--db', store.url], io);
      assert.equal(code, 0, lines.join('\n'));
      assert.equal(lines.filter((l) => /paired \(data version \d+\)$/.test(l)).length, rounds);
      assert.match(lines.at(-1)!, new RegExp(`round ${rounds} played: the event is finished`));
      // Every step an import that moved the data version: a server picks each one up.
      assert.ok((await store.dataVersion()) >= before + rounds + 1);
      const games = await store.db
        .selectFrom('games')
        .select(['id', 'played'])
        .where('event_id', '=', event.id)
        .execute();
      assert.equal(games.length, event.games!.length);
      assert.ok(games.every((g) => Number(g.played) === 1));
      const status = await store.db
        .selectFrom('events')
        .select('status')
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow();
      assert.equal(status.status, 'completed');
      // Played again into the same store: refused, since no import takes a result back.
      const again = recorder();
      assert.equal(await main(['replay', file, '--db', store.url], again.io), 1);
      assert.match(again.lines.join('\n'), /already holds event/);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('stops between rounds when told, the round in progress left paired', async () => {
    const { store, cleanup } = await openSharedTestStore();
    try {
      const { lines, io } = recorder();
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const done = replayEvent(store, file, { everyMs: 3_600_000, stop: stopped }, io);
      const end = Date.now() + 30_000;
      while (!lines.some((l) => l.includes('round 1 paired')) && Date.now() < end) await sleep(20);
      const unplayed = await store.db
        .selectFrom('games')
        .select('round')
        .where('event_id', '=', event.id)
        .where('played', '=', 0)
        .execute();
      assert.ok(unplayed.length > 0 && unplayed.every((g) => Number(g.round) === 1));
      stop();
      assert.equal(await done, 0);
      assert.match(lines.at(-1)!, /stopped: the event stays with round 1 paired/);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('refuses a bad --every and an event without round numbers, saying why', async () => {
    for (const every of ['50ms', '2h', 'soon']) {
      const { lines, io } = recorder();
      assert.equal(await main(['replay', file, '--every', every], io), 2, every);
      assert.match(lines.join('\n'), /--every takes a time from 100ms to 1h/);
    }
    const { doc: bare } = replayDocument((e) => ({
      ...e,
      games: e.games!.map((g) => ({ ...g, round: null })),
    }));
    const unnumbered = writeReplayFile(join(dir, 'unnumbered.json'), bare);
    const { store, cleanup } = await openSharedTestStore();
    try {
      const { lines, io } = recorder();
      assert.equal(await main(['replay', unnumbered, '--db', store.url], io), 1);
      assert.match(lines.join('\n'), /muster replay: .* have no round number/);
      assert.equal(await store.dataVersion(), 0, 'nothing was imported');
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('stops cleanly on SIGTERM', { skip: TEST_BACKEND !== 'sqlite' }, async () => {
    const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
    const child = spawn(process.execPath, [bin, 'replay', file, '--every', '1h'], {
      env: { ...process.env, MUSTER_DATABASE_URL: join(dir, 'signal.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const end = Date.now() + 60_000;
    while (!out.includes('round 1 paired') && Date.now() < end) await sleep(50);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, out);
    assert.match(out, /SIGTERM: stopping before the next round/);
    assert.match(out, /stopped: the event stays with round 1 paired/);
  });
});
