/**
 * An event's links are absolute http(s) URLs (docs/import-formats.md#links): a `javascript:`,
 * `vbscript:` or `data:` link, or one without a scheme, rejects its event with a reason that says
 * what to write instead, in the canonical document and in NDJSON alike.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { isHttpUrl } from '../../src/domain/http-url.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const HOSTILE = [
  'javascript:alert(26)',
  ' JaVaScRiPt:alert(26)',
  'java\tscript:alert(26)',
  'vbscript:msgbox(26)',
  'data:text/html,<script>alert(26)</script>',
  'www.example.org/register',
  '//evil.example/register',
];

/** A scheduled satellite of system tow with the given links. */
function satellite(id: string, links: { url?: string; registrationUrl?: string }) {
  return {
    id,
    system: 'tow',
    name: `Satellite ${id}`,
    start: '2099-05-01',
    status: 'scheduled',
    tier: 'satellite',
    ...links,
  };
}

describe('the link rule', () => {
  it('takes absolute http and https URLs only, as written', () => {
    for (const ok of ['https://example.org/register?x=1,2', 'HTTP://EXAMPLE.ORG']) {
      assert.ok(isHttpUrl(ok), ok);
    }
    for (const bad of [...HOSTILE, 'https://', 'http:/example.org', 'ftp://example.org']) {
      assert.ok(!isHttpUrl(bad), JSON.stringify(bad));
    }
  });
});

describe(`event links at import (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-event-links-'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('canonical JSON: rejects each event whose registrationUrl is not http(s), with the reason', async () => {
    const document = smallDocument();
    document.events = [
      ...HOSTILE.map((link, i) => satellite(`bad-${i}`, { registrationUrl: link })),
      satellite('good', { registrationUrl: 'https://example.org/register' }),
    ] as typeof document.events;
    const report = await importCanonical(store, document);
    assert.deepEqual(
      report.rejects.map((r) => [r.kind, r.field]),
      HOSTILE.map(() => ['event', '/registrationUrl']),
    );
    for (const [i, r] of report.rejects.entries()) {
      assert.equal(
        r.reason,
        `registrationUrl ${JSON.stringify(HOSTILE[i])} is not an absolute http:// or https:// URL; ` +
          'give the full web address, e.g. https://example.org/register',
      );
    }
    assert.equal(report.counts.events.imported, 1, 'the event with an https link imports');
    const stored = await store.db.selectFrom('events').select('id').where('id', 'like', 'bad-%');
    assert.deepEqual(await stored.execute(), []);
  });

  it('NDJSON: rejects an event whose url is javascript: and imports the next line', async () => {
    const { systems, factions } = smallDocument();
    const path = join(dir, 'links.ndjson');
    writeFileSync(
      path,
      [
        { format: 'muster/v1', systems, factions },
        { format: 'muster/v1', events: [satellite('nd-bad', { url: 'javascript:alert(26)' })] },
        { format: 'muster/v1', events: [satellite('nd-ok', { url: 'https://example.org/e' })] },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const report = await importSources(store, [path], { format: 'ndjson' });
    assert.deepEqual(
      report.rejects.map((r) => [r.record, r.field, r.reason.split(';')[0]]),
      [
        [
          'line 2 events[0] (nd-bad)',
          '/url',
          'url "javascript:alert(26)" is not an absolute http:// or https:// URL',
        ],
      ],
    );
    assert.equal(report.counts.events.imported, 1);
  });
});
