/**
 * Writes a canonical event as a pairing app's export (docs/import-formats.md#pairing-app-exports):
 * `event.json`, `players.json` (an object keyed by index, as scrapers save it) and
 * `pairings.json`, with each entry's list as a roster in `rosters/`, taking turns between `.ros`,
 * `.rosz` and New Recruit JSON. Built from the public field names, for the round-trip tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalDocument, Event, Faction, Result, Side } from '../../src/domain/model.ts';
import { rosterJson, rosterXml, rosterZip } from './roster-writer.ts';

const CODES: Record<Result, number> = { win: 2, draw: 1, loss: 0 };

function results(a: Side, b: Side): [Result, Result] {
  if (a.result && b.result) return [a.result, b.result];
  const [x, y] = [a.score ?? 0, b.score ?? 0];
  return x > y ? ['win', 'loss'] : x < y ? ['loss', 'win'] : ['draw', 'draw'];
}

/** Writes `event` of `doc` into `dir`; `rosters: false` leaves the lists out. */
export function writeBcpExport(
  doc: CanonicalDocument,
  event: Event,
  dir: string,
  options: { rosters?: boolean; systemName?: string } = {},
): void {
  mkdirSync(dir, { recursive: true });
  const factions = new Map<string, Faction>((doc.factions ?? []).map((f) => [f.id, f]));
  const name = (id: string | null | undefined) => (id ? (factions.get(id)?.name ?? id) : undefined);
  const players = new Map((doc.players ?? []).map((p) => [p.id, p]));
  const split = (id: string) => {
    const [firstName, ...rest] = (players.get(id)?.name ?? id).split(' ');
    return { firstName, lastName: rest.join(' ') };
  };
  const army = (faction: string | null | undefined, subfaction: string | null | undefined) =>
    subfaction
      ? { army: name(subfaction), parentArmy: name(faction) }
      : { army: name(faction), parentArmy: name(faction) };
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({
      objectId: event.id,
      name: event.name,
      eventDate: `${event.start}T09:00:00.000Z`,
      ...(event.end ? { eventEndDate: `${event.end}T18:00:00.000Z` } : {}),
      gameSystem: { name: options.systemName ?? event.system },
      ...(event.rounds ? { numberOfRounds: event.rounds } : {}),
      ...(event.city ? { city: event.city } : {}),
      ...(event.country ? { country: event.country } : {}),
    }),
  );
  const entries = event.entries ?? [];
  writeFileSync(
    join(dir, 'players.json'),
    JSON.stringify(
      Object.fromEntries(
        entries.map((e, i) => {
          const { army: armyName, parentArmy } = army(e.faction, e.subfaction);
          return [
            String(i),
            {
              objectId: `reg-${e.player}`,
              userId: e.player,
              ...split(e.player),
              eventId: event.id,
              army: { name: armyName, ...(parentArmy !== armyName ? { parentArmy } : {}) },
              ...(e.team ? { team: { name: e.team } } : {}),
              dropped: false,
            },
          ];
        }),
      ),
    ),
  );
  const pairings = (event.games ?? []).map((g) => {
    const [ra, rb] = results(g.sides[0], g.sides[1]);
    const side = (s: Side, r: Result) => ({
      objectId: `reg-${s.player}`,
      userId: s.player,
      ...split(s.player as string),
      ...army(s.faction, s.subfaction),
      game: {
        gameResult: CODES[r],
        ...(s.score === null || s.score === undefined ? {} : { gamePoints: s.score }),
      },
    });
    return {
      pairingTable: 'Pairing',
      objectId: g.id,
      eventId: event.id,
      round: g.round,
      table: g.table,
      player1: side(g.sides[0], ra),
      player2: side(g.sides[1], rb),
    };
  });
  writeFileSync(join(dir, 'pairings.json'), JSON.stringify(pairings));
  if (options.rosters === false) return;
  mkdirSync(join(dir, 'rosters'), { recursive: true });
  entries.forEach((e, i) => {
    if (!e.list) return;
    const meta = { name: `${e.player}'s list`, catalogue: name(e.faction) };
    const file = join(dir, 'rosters', e.player);
    if (i % 3 === 0) writeFileSync(`${file}.ros`, rosterXml(e.list, meta));
    else if (i % 3 === 1) writeFileSync(`${file}.rosz`, rosterZip(e.list, meta));
    else writeFileSync(`${file}.json`, rosterJson(e.list, meta));
  });
}
