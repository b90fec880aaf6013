/**
 * Links stored before imports checked them (docs/import-formats.md#links) are answered and
 * written only when http(s): POST /api/upcoming-satellites and the .ics feed never hand on a
 * `javascript:` or `vbscript:` link.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

const satellite = (id: string) => ({
  id,
  system: 'tow',
  name: `Satellite ${id}`,
  start: '2099-05-01',
  status: 'scheduled',
  tier: 'satellite',
  url: `https://example.org/${id}`,
  registrationUrl: `https://example.org/${id}/register`,
});

describe(`satellite links over HTTP (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  before(async () => {
    store = await openTestStore();
    const document = smallDocument();
    document.events = [
      ...document.events,
      satellite('sat-bad'),
      satellite('sat-vb'),
      satellite('sat-ok'),
    ] as typeof document.events;
    const report = await importCanonical(store, document);
    assert.deepEqual(report.rejects, []);
    // As a store written before the rule would hold them.
    await store.db
      .updateTable('events')
      .set({ url: null, registration_url: ' JaVaScRiPt:alert(26)' })
      .where('id', '=', 'sat-bad')
      .execute();
    await store.db
      .updateTable('events')
      .set({ url: 'vbscript:msgbox(26)', registration_url: 'data:text/html,x' })
      .where('id', '=', 'sat-vb')
      .execute();
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  it('answers a stored non-http link as null and keeps an https one', async () => {
    const { status, json } = await stats.post('/api/upcoming-satellites', { system: 'tow' });
    assert.equal(status, 200, JSON.stringify(json));
    const events = (json.data as { events: Array<Record<string, unknown>> }).events;
    const byId = new Map(events.map((e) => [e.id, e]));
    assert.deepEqual(
      ['sat-bad', 'sat-vb', 'sat-ok'].map((id) => [
        byId.get(id)?.url,
        byId.get(id)?.registrationUrl,
      ]),
      [
        [null, null],
        [null, null],
        ['https://example.org/sat-ok', 'https://example.org/sat-ok/register'],
      ],
    );
  });

  it('writes no javascript:, vbscript: or data: URL into the .ics feed', async () => {
    const res = await stats.app.inject({
      method: 'GET',
      url: '/api/upcoming-satellites.ics?system=tow',
    });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.doesNotMatch(res.body, /javascript:|vbscript:|data:/i);
    const vevents = new ICAL.Component(ICAL.parse(res.body)).getAllSubcomponents('vevent');
    const url = (uid: string) =>
      vevents.find((v) => new ICAL.Event(v).uid === uid)?.getFirstPropertyValue('url') ?? null;
    assert.equal(url('sat-bad@muster'), null);
    assert.equal(url('sat-vb@muster'), null);
    assert.equal(url('sat-ok@muster'), 'https://example.org/sat-ok');
  });
});
