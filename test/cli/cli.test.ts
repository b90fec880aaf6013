import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { TEST_BACKEND, TEST_DATABASE_URL } from '../support/test-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A store of its own for each use: a SQLite file, or a PostgreSQL schema (cli_..., dropped by the runner). */
function freshDatabaseUrl(): string {
  const name = `cli_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  if (TEST_BACKEND === 'sqlite') return join(dir, `${name}.db`);
  return `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes('?') ? '&' : '?'}schema=${name}`;
}

function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const databaseUrl = freshDatabaseUrl();
  return main(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { MUSTER_DATABASE_URL: databaseUrl, ...env },
  }).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

describe('muster command line', () => {
  it('prints help with examples for every command and exits 0', async () => {
    for (const command of ['serve', 'migrate', 'import', 'seed-demo', 'rejects']) {
      const r = await run([command, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.out, /Usage: muster /);
      assert.match(r.out, /Example/);
    }
  });

  it('shows one worked example per import format, each naming the dashboard page and filter', async () => {
    const r = await run(['import', '--help']);
    for (const format of ['canonical', 'ndjson', 'csv', 't9a', 'bcp', 'roster']) {
      const example = r.out
        .split('\n')
        .findIndex(
          (l) =>
            /^ {2}[a-z]/.test(l) &&
            l.includes(format === 'canonical' ? 'muster import events.json' : `--format ${format}`),
        );
      assert.ok(example >= 0, `an example for ${format}`);
      const said = r.out
        .split('\n')
        .slice(example, example + 2)
        .join(' ');
      assert.match(said, /# (Meta|Matchups|Lists|Rankings)/, `${format}: ${said}`);
    }
  });

  it('exits 2 when --format roster has no --event, or --event comes with another format', async () => {
    const roster = await run(['import', '--format', 'roster', 'rosters/']);
    assert.equal(roster.code, 2);
    assert.match(roster.err, /--format roster needs --event ID/);
    const csv = await run(['import', '--format', 'csv', '--event', 'x', 'a.csv']);
    assert.equal(csv.code, 2);
    assert.match(csv.err, /--event is for --format roster only, not csv/);
  });

  it('reads .ndjson files as NDJSON without --format, rejecting a bad line alone', async () => {
    const file = join(dir, 'store.ndjson');
    writeFileSync(file, `${JSON.stringify(smallDocument())}\n{"bad json\n`);
    const r = await run(['import', file]);
    assert.equal(r.code, 1);
    assert.match(r.out, /import 1 \(ndjson\): imported/);
    assert.match(r.out, /events\s+[1-9]\d* imported/);
    assert.match(r.out, /store\.ndjson · line 2: malformed JSON/);
  });

  it('exits 2 on an unknown command or option, naming it', async () => {
    assert.equal((await run(['frobnicate'])).code, 2);
    const r = await run(['import', '--colour', 'x']);
    assert.equal(r.code, 2);
    assert.match(r.err, /colour/);
  });

  it('stops with a message naming the variable when configuration is invalid', async () => {
    const r = await run(['migrate'], { MUSTER_PORT: 'eighty' });
    assert.equal(r.code, 2);
    assert.match(r.err, /MUSTER_PORT: expected a whole number, got "eighty"/);
  });

  it('exits 2 naming an import id that does not exist', async () => {
    const r = await run(['rejects', '--import', '999']);
    assert.equal(r.code, 2);
    assert.match(r.err, /no import 999/);
    assert.equal(r.out, '');
  });

  it('imports a file, exits 1 when something was rejected, and prints each reject and the summary', async () => {
    const db = freshDatabaseUrl();
    const doc = smallDocument();
    doc.events[0].games!.push({
      id: 'bad',
      sides: [
        { player: 'p1', faction: 'VS', score: 25 },
        { player: 'p2', faction: 'HE', score: -5 },
      ],
    });
    const path = join(dir, 'doc.json');
    writeFileSync(path, JSON.stringify(doc));
    const env = { MUSTER_DATABASE_URL: db };
    const first = await run(['import', path], env);
    assert.equal(first.code, 1);
    assert.match(
      first.out,
      /rejected game: .*doc\.json · game bad · \/sides\/0\/score: score 25 is outside the tow scale 0\.\.20/,
    );
    assert.match(first.out, /games\s+3 imported\s+0 updated\s+0 unchanged\s+1 rejected/);
    const rejects = await run(['rejects'], env);
    assert.equal(rejects.code, 0);
    const lines = rejects.out.split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].record, 'game bad');
    assert.equal(lines[0].payload.sides[0].score, 25, 'the payload can be fixed and replayed');
    const clean = smallDocument();
    writeFileSync(path, JSON.stringify(clean));
    const second = await run(['import', '--format', 'canonical', path], env);
    assert.equal(second.code, 0, second.out + second.err);
    assert.match(second.out, /games\s+0 imported\s+0 updated\s+3 unchanged\s+0 rejected/);
  });

  it('says a line that is not UTF-8 was rejected alone, not its whole file, and imports the rest', async () => {
    const path = join(dir, 'latin1.ndjson');
    const good = Buffer.from(JSON.stringify(smallDocument()) + '\n');
    const bad = Buffer.concat([
      Buffer.from('{"format":"muster/v1","note":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n'),
    ]);
    writeFileSync(path, Buffer.concat([bad, good]));
    const result = await run(['import', '--format', 'ndjson', path]);
    assert.equal(result.code, 1, result.out + result.err);
    assert.match(result.out, /latin1\.ndjson · line 1: bytes that are not UTF-8/);
    assert.match(result.out, /games\s+3 imported/);
    assert.match(result.out, /1 line\(s\) that could not be read rejected alone/);
    assert.doesNotMatch(result.out, /rejected whole/);
  });
});
