import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';

describe('configuration', () => {
  it('fills documented defaults and freezes the result', () => {
    const config = loadConfig({});
    assert.equal(config.databaseUrl, './data/muster.db');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.deepEqual(config.allowedOrigins, ['http://localhost:8080', 'http://127.0.0.1:8080']);
    assert.equal(config.allowNoOrigin, false);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.receiveTimeoutMs, 15_000);
    assert.equal(config.shutdownGraceMs, 2_000);
    assert.ok(Object.isFrozen(config));
    assert.throws(() => {
      (config as { port: number }).port = 1;
    });
  });

  it('keeps the snapshot file beside a SQLite file, nowhere for PostgreSQL, or where told', () => {
    assert.equal(loadConfig({}).snapshotFile, resolve('./data/muster.db.snapshot'));
    const sqlite = loadConfig({ MUSTER_DATABASE_URL: 'sqlite:/srv/muster.db' });
    assert.equal(sqlite.snapshotFile, '/srv/muster.db.snapshot');
    assert.equal(loadConfig({ MUSTER_DATABASE_URL: 'sqlite::memory:' }).snapshotFile, null);
    const postgres = { MUSTER_DATABASE_URL: 'postgres://muster@db:5432/muster' };
    assert.equal(loadConfig(postgres).snapshotFile, null);
    assert.equal(
      loadConfig({ ...postgres, MUSTER_SNAPSHOT_FILE: '/var/cache/muster.snapshot' }).snapshotFile,
      '/var/cache/muster.snapshot',
    );
    assert.equal(loadConfig({ MUSTER_SNAPSHOT_FILE: 'OFF' }).snapshotFile, null);
  });

  it('names the variable of a bad value', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ MUSTER_PORT: '70000' }, /MUSTER_PORT: must be between 0 and 65535/],
      [{ MUSTER_ALLOW_NO_ORIGIN: 'perhaps' }, /MUSTER_ALLOW_NO_ORIGIN: expected true or false/],
      [{ MUSTER_LOG_LEVEL: 'loud' }, /MUSTER_LOG_LEVEL/],
      [{ MUSTER_PUBLIC_URL: 'not a url' }, /MUSTER_PUBLIC_URL: not an absolute URL/],
      [
        { MUSTER_ALLOWED_ORIGINS: 'https://example.org/path' },
        /MUSTER_ALLOWED_ORIGINS: .* is not an origin/,
      ],
      [{ MUSTER_ALLOWED_ORIGINS: 'https://*.org' }, /MUSTER_ALLOWED_ORIGINS: .*wildcard/],
      [{ MUSTER_DATABASE_URL: 'mysql://x' }, /MUSTER_DATABASE_URL: unsupported scheme/],
      [{ MUSTER_REDIS_URL: 'http://x' }, /MUSTER_REDIS_URL: expected a redis: or rediss: URL/],
      [
        { MUSTER_HEADERS_TIMEOUT_MS: '20000', MUSTER_RECEIVE_TIMEOUT_MS: '5000' },
        /MUSTER_RECEIVE_TIMEOUT_MS: must be at least MUSTER_HEADERS_TIMEOUT_MS/,
      ],
      [{ MUSTER_SHUTDOWN_GRACE_MS: '-1' }, /MUSTER_SHUTDOWN_GRACE_MS: expected a whole number/],
    ];
    for (const [env, message] of cases) assert.throws(() => loadConfig(env), message);
  });

  it('parses allowed origins and wildcard patterns, lower-cased and without a trailing slash', () => {
    const config = loadConfig({
      MUSTER_ALLOWED_ORIGINS: ' https://Stats.Example.org/ , https://*.example.org ',
    });
    assert.deepEqual(config.allowedOrigins, ['https://stats.example.org', 'https://*.example.org']);
  });
});
