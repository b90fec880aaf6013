#!/usr/bin/env node
// Runs every test file under test/ with node's test runner (tsx for TypeScript) against the
// backend named by MUSTER_TEST_DATABASE_URL (SQLite in memory when unset). Node 20 has no glob
// support in --test, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = (only.length ? only : find('test')).map((f) => relative(process.cwd(), f)).sort();
const backend = /^postgres/i.test(process.env.MUSTER_TEST_DATABASE_URL ?? '')
  ? 'postgresql'
  : 'sqlite';
console.log(`# running ${files.length} test files against ${backend}`);
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...(process.env.MUSTER_TAP_FILE
      ? ['--test-reporter=tap', `--test-reporter-destination=${process.env.MUSTER_TAP_FILE}`]
      : []),
    ...files,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, MUSTER_LOG_LEVEL: process.env.MUSTER_LOG_LEVEL ?? 'silent' },
  },
);
process.exit(result.status ?? 1);
