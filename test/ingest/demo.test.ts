import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalDocument, Event } from '../../src/domain/model.ts';
import {
  DEMO_NOTICE,
  DEMO_SYSTEM_ID,
  describeDemo,
  generateDemo,
} from '../../src/ingest/demo/generate-demo.ts';
import { isUnplayed } from '../../src/domain/unplayed-game.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const TODAY = '2025-06-15'; // a Sunday
const doc = generateDemo({ today: TODAY });
const events = doc.events ?? [];
// The event under way is stored completed with a round paired and not played: running.
const underWay = (e: Event) => (e.games ?? []).some(isUnplayed);
const completed = events.filter((e) => e.status === 'completed' && !underWay(e));
const games = completed.flatMap((e) => (e.games ?? []).map((g) => ({ event: e, game: g })));

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

/** Events without their dates, to compare two documents made for different days. */
function undated(d: CanonicalDocument): unknown {
  return {
    ...d,
    events: d.events?.map((e) => ({ ...e, start: undefined, end: undefined })),
  };
}

describe('demo data generator: determinism', () => {
  it('gives an identical document for the same day and seed', () => {
    // JSON text comparison: stricter than deepEqual (key order too) and far faster on 15 MB.
    assert.ok(JSON.stringify(generateDemo({ today: TODAY })) === JSON.stringify(doc));
    const seeded = JSON.stringify(generateDemo({ today: TODAY, seed: 7 }));
    assert.ok(JSON.stringify(generateDemo({ today: TODAY, seed: 7 })) === seeded);
    assert.ok(seeded !== JSON.stringify(doc));
  });

  it('gives different data for a different seed', () => {
    const other = generateDemo({ today: TODAY, seed: 7 });
    assert.notDeepEqual(other.players, doc.players);
    assert.notDeepEqual(other.events?.[0].games, doc.events?.[0].games);
  });

  it('moves every date by a week when today moves by a week, and nothing else', () => {
    const later = generateDemo({ today: addDays(TODAY, 7) });
    const laterEvents = later.events ?? [];
    assert.equal(laterEvents.length, events.length);
    events.forEach((e, i) => {
      assert.equal(laterEvents[i].id, e.id);
      assert.equal(daysBetween(e.start, laterEvents[i].start), 7, e.id);
      assert.equal(daysBetween(e.end ?? '', laterEvents[i].end ?? ''), 7, e.id);
    });
    assert.ok(JSON.stringify(undated(later)) === JSON.stringify(undated(doc)));
  });

  it('keeps history before today and satellites after it whatever the weekday', () => {
    for (let shift = 1; shift <= 6; shift++) {
      const today = addDays(TODAY, shift);
      const d = generateDemo({ today });
      for (const e of d.events ?? []) {
        if (underWay(e)) assert.ok(e.start <= today && (e.end ?? '') >= today, e.id);
        else if (e.status === 'completed')
          assert.ok((e.end ?? e.start) < today, `${e.id} ends before ${today}`);
        if (e.status === 'scheduled' || e.status === 'cancelled') assert.ok(e.start > today, e.id);
      }
    }
  });

  it('rejects a day that is not YYYY-MM-DD', () => {
    assert.throws(() => generateDemo({ today: '15/06/2025' }), /YYYY-MM-DD/);
    assert.throws(() => generateDemo({ today: '2025-02-30' }), /not a calendar date/);
  });
});

describe('demo data generator: the document', () => {
  it('is marked as demo data', () => {
    assert.equal(DEMO_SYSTEM_ID, 'demo-fantasy');
    assert.equal(doc.format, 'muster/v1');
    assert.deepEqual(
      doc.systems?.map((s) => s.id),
      [DEMO_SYSTEM_ID],
    );
    assert.match(doc.systems?.[0].name ?? '', /demo/i);
    assert.match(DEMO_NOTICE, /demo data/i);
    assert.match(describeDemo(doc), /150 completed events, 1 under way, \d+ games, \d+ players/);
    assert.ok(events.every((e) => e.id.startsWith('demo-') && e.system === DEMO_SYSTEM_ID));
    assert.ok(doc.players?.every((p) => p.id.startsWith('demo-')));
  });

  it('declares a 0..20 score scale summing to 20 with T9A-like margin bands', () => {
    const system = doc.systems?.[0];
    assert.deepEqual(system?.score, { min: 0, max: 20, total: 20 });
    assert.deepEqual(system?.marginBands, {
      decisive: { min: 18, max: 20 },
      normal: { min: 14, max: 17 },
      close: { min: 10, max: 13 },
    });
  });

  it('declares 14-16 armies and subfactions whose parents exist, with unambiguous aliases', () => {
    const factions = doc.factions ?? [];
    const top = factions.filter((f) => !f.parent);
    const subs = factions.filter((f) => f.parent);
    assert.ok(top.length >= 14 && top.length <= 16, `${top.length} armies`);
    assert.ok(subs.length >= 1 && subs.length <= 2);
    for (const s of subs)
      assert.ok(
        top.some((f) => f.id === s.parent),
        s.id,
      );
    const owner = new Map<string, string>();
    for (const f of factions) {
      for (const name of [f.id, f.name, ...(f.aliases ?? [])]) {
        const key = name.toLowerCase();
        assert.ok(!owner.has(key) || owner.get(key) === f.id, `"${name}" names two factions`);
        owner.set(key, f.id);
      }
    }
  });

  it('has 150 completed events within the two years before today across many countries', () => {
    assert.equal(completed.length, 150);
    const earliest = addDays(TODAY, -731);
    for (const e of completed) {
      assert.ok(e.start >= earliest && (e.end ?? e.start) < TODAY, `${e.id} ${e.start}`);
      assert.ok(e.end && e.end >= e.start);
      assert.ok((e.participants ?? 0) >= 8 && (e.participants ?? 0) <= 120, e.id);
      assert.ok((e.rounds ?? 0) >= 3 && (e.rounds ?? 0) <= 6, e.id);
      assert.ok([3000, 4000, 4500].includes(e.pointsLimit ?? 0), e.id);
      assert.match(e.country ?? '', /^[A-Z]{2}$/);
      if (e.online) assert.equal(e.location, null);
      else {
        assert.ok(e.city && e.venue, e.id);
        assert.ok(Math.abs(e.location?.lat ?? 99) <= 90 && Math.abs(e.location?.lon ?? 999) <= 180);
      }
    }
    assert.ok(new Set(completed.map((e) => e.country)).size >= 15);
    const online = completed.filter((e) => e.online).length;
    assert.ok(online >= 1 && online <= 8, `${online} online`);
    const teams = completed.filter((e) => e.format === 'teams').length;
    assert.ok(teams >= 5 && teams <= 40, `${teams} team events`);
    const versions = new Set(completed.map((e) => e.rulesVersion));
    assert.ok(versions.size >= 2 && versions.size <= 3);
    const sizes = completed.map((e) => e.participants ?? 0);
    assert.ok(Math.min(...sizes) <= 12 && Math.max(...sizes) >= 80, 'a mix of sizes');
  });

  it('has a few majors and satellites that qualify for a later major', () => {
    const byId = new Map(events.map((e) => [e.id, e]));
    const majors = completed.filter((e) => e.tier === 'major');
    assert.ok(majors.length >= 2 && majors.length <= 6);
    const satellites = events.filter((e) => e.tier === 'satellite');
    assert.ok(completed.filter((e) => e.tier === 'satellite').length >= 20);
    for (const s of satellites) {
      const major = byId.get(s.qualifiesFor ?? '');
      assert.equal(major?.tier, 'major', `${s.id} qualifies for a major`);
      assert.ok((major?.start ?? '') > (s.end ?? s.start), `${s.id} comes before its major`);
      assert.ok((s.slots ?? 0) >= 1, s.id);
    }
    for (const e of events.filter((e) => e.tier !== 'satellite'))
      assert.equal(e.qualifiesFor, null);
  });

  it('schedules 8-15 satellites after today, plus one cancelled one and one event under way', () => {
    const byId = new Map(events.map((e) => [e.id, e]));
    const upcoming = events.filter((e) => e.tier === 'satellite' && e.status === 'scheduled');
    assert.ok(upcoming.length >= 8 && upcoming.length <= 15, `${upcoming.length} upcoming`);
    for (const s of upcoming) {
      assert.ok(s.start > TODAY, s.id);
      assert.equal(byId.get(s.qualifiesFor ?? '')?.status, 'scheduled');
      assert.ok((s.capacity ?? 0) > 0 && (s.participants ?? 0) <= (s.capacity ?? 0), s.id);
      assert.match(s.registrationUrl ?? '', /^https:\/\/example\.org\//);
      assert.match(s.url ?? '', /^https:\/\/example\.org\//);
      assert.ok(s.location && s.city && s.country, s.id);
      assert.equal(s.games, undefined);
    }
    const cancelled = events.filter((e) => e.status === 'cancelled');
    assert.equal(cancelled.length, 1);
    assert.equal(cancelled[0].tier, 'satellite');
    assert.ok(cancelled[0].start > TODAY);
    const ongoing = events.filter(underWay);
    assert.equal(ongoing.length, 1);
    // Under way: rounds 1 to 3 played, round 4 paired with no result, nothing later, nobody placed.
    const rounds = (ongoing[0].games ?? []).map((g) => ({
      round: g.round,
      played: g.sides.every((s) => s.result !== undefined && s.score !== undefined),
      unplayed: g.sides.every((s) => s.result === undefined && s.score === undefined),
    }));
    const tables = (ongoing[0].entries ?? []).length / 2;
    for (const round of [1, 2, 3])
      assert.equal(rounds.filter((r) => r.round === round && r.played).length, tables);
    assert.equal(rounds.filter((r) => r.round === 4 && r.unplayed).length, tables);
    assert.equal(rounds.length, 4 * tables);
    assert.ok(ongoing[0].entries?.every((e) => e.placement === undefined));
  });

  it('has 2,000+ distinct players, each in at least one event', () => {
    const players = doc.players ?? [];
    assert.ok(players.length >= 2000, `${players.length} players`);
    assert.equal(new Set(players.map((p) => p.id)).size, players.length);
    for (const p of players) {
      assert.match(p.country ?? '', /^[A-Z]{2}$/);
      assert.ok((p.name ?? '').length > 3);
    }
    const entered = new Set(events.flatMap((e) => (e.entries ?? []).map((en) => en.player)));
    assert.deepEqual(new Set(players.map((p) => p.id)), entered);
  });

  it('gives each completed event one entry per participant, singles placed, team events teams', () => {
    const factions = new Map((doc.factions ?? []).map((f) => [f.id, f]));
    for (const e of completed) {
      const entries = e.entries ?? [];
      assert.equal(entries.length, e.participants, e.id);
      if (e.format === 'teams') {
        assert.ok(
          entries.every((en) => en.team && en.placement === undefined),
          `${e.id}: every entry names its team and has no placement of its own`,
        );
      } else {
        assert.deepEqual(
          entries.map((en) => en.placement).sort((a, b) => (a ?? 0) - (b ?? 0)),
          entries.map((_, i) => i + 1),
          `${e.id} placements are 1..n`,
        );
      }
      for (const en of entries) {
        assert.ok(factions.has(en.faction ?? ''), en.faction ?? '');
        if (en.subfaction) assert.equal(factions.get(en.subfaction)?.parent, en.faction);
        const list = en.list;
        assert.ok(list && list.units.length >= 3, `${e.id} ${en.player} has a list`);
        const sum = list.units.reduce((s, u) => s + (u.cost ?? 0), 0);
        assert.equal(list.points, sum);
        assert.ok(sum <= (e.pointsLimit ?? 0), `${e.id} list within the points limit`);
        assert.ok(list.units.some((u) => u.category === 'Characters'));
      }
    }
  });

  it('plays Swiss rounds: sides are entrants, nobody plays twice in a round or meets themselves', () => {
    for (const e of completed) {
      const entries = new Map((e.entries ?? []).map((en) => [en.player, en]));
      const rounds = new Map<number, Set<string>>();
      for (const g of e.games ?? []) {
        const [a, b] = g.sides;
        assert.notEqual(a.player, b.player, g.id);
        const seen = rounds.get(g.round ?? 0) ?? new Set<string>();
        rounds.set(g.round ?? 0, seen);
        for (const side of g.sides) {
          const entry = entries.get(side.player ?? '');
          assert.ok(entry, `${g.id}: ${side.player} entered ${e.id}`);
          assert.equal(side.faction, entry.faction);
          assert.equal(side.subfaction ?? null, entry.subfaction ?? null);
          assert.ok(!seen.has(side.player ?? ''), `${side.player} plays twice in ${g.id}`);
          seen.add(side.player ?? '');
          assert.equal(side.list, undefined, 'lists live on entries');
        }
        if (e.format === 'teams')
          assert.notEqual(entries.get(a.player ?? '')?.team, entries.get(b.player ?? '')?.team);
      }
      assert.equal(rounds.size, e.rounds, e.id);
      for (const players of rounds.values()) assert.equal(players.size, e.participants, e.id);
    }
  });

  it('scores every game 0..20 summing to 20 with results that follow, and one first turn', () => {
    const ids = new Set<string>();
    let draws = 0;
    let withFirstTurn = 0;
    for (const { event, game } of games) {
      assert.match(game.id, new RegExp(`^${event.id}-r${game.round}-t${game.table}$`));
      assert.ok(!ids.has(game.id), `duplicate game id ${game.id}`);
      ids.add(game.id);
      const [a, b] = game.sides;
      for (const s of game.sides) {
        assert.ok(Number.isInteger(s.score) && (s.score ?? -1) >= 0 && (s.score ?? 99) <= 20);
      }
      assert.equal((a.score ?? 0) + (b.score ?? 0), 20, game.id);
      const expected = (x: number, y: number) => (x > y ? 'win' : x < y ? 'loss' : 'draw');
      assert.equal(a.result, expected(a.score ?? 0, b.score ?? 0), game.id);
      assert.equal(b.result, expected(b.score ?? 0, a.score ?? 0), game.id);
      if (a.result === 'draw') draws++;
      const recorded = game.sides.filter((s) => s.firstTurn !== undefined && s.firstTurn !== null);
      if (recorded.length > 0) {
        withFirstTurn++;
        assert.equal(recorded.length, 2, game.id);
        assert.equal(game.sides.filter((s) => s.firstTurn === true).length, 1, game.id);
        assert.ok(!(a.primaryAchieved && b.primaryAchieved), `${game.id}: one primary at most`);
      }
    }
    assert.ok(games.length >= 10_000 && games.length <= 15_000, `${games.length} games`);
    assert.ok(draws / games.length > 0.03 && draws / games.length < 0.2, `${draws} draws`);
    assert.ok(
      withFirstTurn / games.length > 0.7 && withFirstTurn < games.length,
      'first turn mostly recorded',
    );
  });

  it('draws scenarios, maps, deployments and objectives from the declared catalogue', () => {
    const declared = new Set((doc.scenarios ?? []).map((s) => `${s.kind}:${s.name}`));
    for (const kind of ['scenario', 'map', 'deployment', 'primary', 'secondary']) {
      assert.ok(
        (doc.scenarios ?? []).some((s) => s.kind === kind && s.description),
        kind,
      );
    }
    const has = (kind: string, name: string | null | undefined) =>
      name === undefined || name === null || declared.has(`${kind}:${name}`);
    for (const { game } of games) {
      const sc = game.scenario;
      assert.ok(sc?.name && has('scenario', sc.name), game.id);
      assert.ok(
        has('map', sc.map) && has('deployment', sc.deployment) && has('primary', sc.primary),
      );
      for (const s of sc.secondaries ?? []) assert.ok(has('secondary', s), s);
      for (const side of game.sides) {
        assert.ok(has('secondary', side.secondary));
        if (side.secondary) assert.ok(sc.secondaries?.includes(side.secondary), game.id);
      }
    }
  });

  it('gives armies a believable spread of win rates, all between 30% and 70%', () => {
    const tally = new Map<string, { games: number; points: number }>();
    for (const { game } of games) {
      if (game.sides[0].faction === game.sides[1].faction) continue;
      for (const s of game.sides) {
        const t = tally.get(s.faction) ?? { games: 0, points: 0 };
        t.games++;
        t.points += s.result === 'win' ? 1 : s.result === 'draw' ? 0.5 : 0;
        tally.set(s.faction, t);
      }
    }
    const rates = [...tally.values()].map((t) => t.points / t.games);
    assert.ok(rates.length >= 14);
    for (const r of rates) assert.ok(r > 0.3 && r < 0.7, `win rate ${r}`);
    assert.ok(Math.max(...rates) - Math.min(...rates) >= 0.08, 'armies are not all alike');
    for (const t of tally.values()) assert.ok(t.games >= 300, 'every army is played');
  });

  it("makes player skill persist: results in a player's first half of games predict the second", () => {
    const ordered = [...games].sort(
      (x, y) =>
        x.event.start.localeCompare(y.event.start) || (x.game.round ?? 0) - (y.game.round ?? 0),
    );
    const history = new Map<string, number[]>();
    for (const { game } of ordered) {
      for (const s of game.sides) {
        const h = history.get(s.player ?? '') ?? [];
        h.push(s.result === 'win' ? 1 : s.result === 'draw' ? 0.5 : 0);
        history.set(s.player ?? '', h);
      }
    }
    const pairs: [number, number][] = [];
    for (const h of history.values()) {
      if (h.length < 10) continue;
      const mid = Math.floor(h.length / 2);
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      pairs.push([mean(h.slice(0, mid)), mean(h.slice(mid))]);
    }
    assert.ok(pairs.length >= 200, `${pairs.length} regulars`);
    assert.ok(correlation(pairs) > 0.3, `correlation ${correlation(pairs)}`);
  });
});

function correlation(pairs: [number, number][]): number {
  const n = pairs.length;
  const mx = pairs.reduce((s, p) => s + p[0], 0) / n;
  const my = pairs.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

describe(`demo data generator: import (${TEST_BACKEND})`, () => {
  it('imports the whole demo document with nothing rejected', async () => {
    const store = await openTestStore();
    try {
      const report = await importCanonical(store, doc, { source: 'demo' });
      assert.deepEqual(report.rejects, []);
      // The completed events' games and the event under way's, its paired round included.
      const gameCount = events.reduce((s, e: Event) => s + (e.games ?? []).length, 0);
      assert.equal(report.counts.events.imported, events.length);
      assert.equal(report.counts.players.imported, doc.players?.length);
      assert.equal(report.counts.games.imported, gameCount);
      for (const c of Object.values(report.counts)) assert.equal(c.rejected, 0);
      const row = await store.db
        .selectFrom('sides')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.n), 2 * gameCount);
    } finally {
      await store.close();
    }
  });
});
