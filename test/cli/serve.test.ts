import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-serve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('muster serve as a process', () => {
  it(
    'seeds an empty store, serves health with demo data, and exits 0 on SIGTERM',
    { timeout: 180_000 },
    async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--seed-if-empty'], {
        env: {
          ...process.env,
          MUSTER_DATABASE_URL: join(dir, 'serve.db'),
          MUSTER_PORT: '0',
          MUSTER_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          const m = /listening on (http:\/\/[^\s]+)/.exec(stdout);
          if (m) resolve(m[1]);
        });
        void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      try {
        const res = await fetch(`${url}/api/health`);
        assert.equal(res.status, 200);
        const body = (await res.json()) as {
          status: string;
          notes: string[];
          checks: Record<string, Array<{ observedValue: unknown }>>;
        };
        assert.equal(body.status, 'pass');
        assert.ok(body.notes.some((n) => /DEMO/.test(n)));
        assert.ok(Number(body.checks['snapshot:games'][0].observedValue) > 5000);
        assert.match(stderr, /seeding the demo dataset/);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, stderr);
    },
  );
});
