/**
 * Import formats are listed once (docs/architecture.md#adding-an-import-format): the command
 * line's choices and help, and the table of docs/import-formats.md, follow src/ingest/formats/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/cli-io.ts';
import { IMPORT_FORMATS, importFormatNamed } from '../../src/ingest/formats/index.ts';

const REPO = resolve(import.meta.dirname, '../..');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (line: string) => out.push(line),
    err: (line: string) => err.push(line),
    env: { MUSTER_DATABASE_URL: 'sqlite::memory:', MUSTER_LOG_LEVEL: 'silent' },
    write: async (line: string) => void out.push(line),
  } as unknown as CliIo;
  const code = await main(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the list of import formats', () => {
  it('names each format once, the default first', () => {
    const names = IMPORT_FORMATS.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names[0], 'canonical');
    for (const name of names) assert.equal(importFormatNamed(name)?.name, name);
    assert.equal(importFormatNamed('xlsx'), undefined);
  });

  it('is what muster import --help offers, with an example of each', async () => {
    const { out } = await run(['import', '--help']);
    const usage = out.split('\n')[0];
    assert.ok(usage.includes(`[--format ${IMPORT_FORMATS.map((f) => f.name).join('|')}]`), usage);
    for (const format of IMPORT_FORMATS) {
      assert.ok(out.includes(`${format.name}: `), `${format.name} in --format's list`);
      assert.ok(out.includes(format.example.command), `${format.name}'s example`);
    }
  });

  it('refuses a format not in the list, naming those that are', async () => {
    const { code, err } = await run(['import', '--format', 'xlsx', 'a.xlsx']);
    assert.equal(code, 2);
    assert.match(err, new RegExp(IMPORT_FORMATS.map((f) => f.name).join(', ')));
  });

  it('has a row in the table of docs/import-formats.md for each, in the same order', () => {
    const docs = readFileSync(join(REPO, 'docs/import-formats.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| `([a-z0-9]+)` \| .* \| \[.*\]\(#[a-z0-9-]+\) \|$/gm)].map(
      (m) => m[1],
    );
    assert.deepEqual(
      rows,
      IMPORT_FORMATS.map((f) => f.name),
    );
  });
});
