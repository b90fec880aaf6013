/** `muster serve` on every core: the primary runs the workers, replaces the dead, stops them all. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-cluster-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('muster serve with MUSTER_WORKERS=2', () => {
  it(
    'starts two workers, replaces a killed one, and stops them all cleanly on SIGTERM',
    { timeout: 240_000 },
    async () => {
      const child = spawn(process.execPath, [BIN, 'serve'], {
        env: {
          ...process.env,
          MUSTER_DATABASE_URL: join(dir, 'cluster.db'),
          MUSTER_PORT: '0',
          MUSTER_WORKERS: '2',
          MUSTER_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      let exitCode: number | null | undefined;
      const exited = new Promise<number | null>((done) =>
        child.on('exit', (code) => done((exitCode = code))),
      );
      const workers = () => [...stdout.matchAll(/Muster worker (\d+) started/g)].map((m) => +m[1]);
      const listening = () => [...stdout.matchAll(/listening on (http:\/\/\S+)/g)].map((m) => m[1]);
      try {
        await until(
          'two listening workers',
          () => exitCode !== undefined || listening().length >= 2,
        );
        assert.equal(exitCode, undefined, `the primary exited: ${stderr}`);
        const [first, second] = workers();
        assert.ok(first !== second && alive(first) && alive(second), stdout);
        const url = listening()[0];
        assert.equal((await fetch(`${url}/api/health`)).status, 200);

        process.kill(first, 'SIGKILL');
        await until('a replacement worker', () => listening().length >= 3);
        assert.match(stderr, new RegExp(`worker ${first} exited \\(SIGKILL\\); starting another`));
        const third = workers()[2];
        assert.ok(alive(third) && !alive(first));
        for (let i = 0; i < 4; i++) {
          assert.equal((await fetch(`${url}/api/health`)).status, 200);
        }

        child.kill('SIGTERM');
        assert.equal(await exited, 0, stderr);
        assert.ok(!alive(second) && !alive(third), 'every worker stopped with the primary');
        assert.match(stderr, /SIGTERM: stopping 2 workers/);
      } finally {
        if (exitCode === undefined) child.kill('SIGKILL');
        for (const pid of workers()) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    },
  );
});
