/**
 * The demo dataset: one invented game system ("Demo Fantasy Battles") with two years of completed
 * tournaments before `today`, satellites scheduled after it, one event under way (its next round
 * paired, docs/data-model.md#unplayed-games), 2,000+ players, lists and games.
 * Pure and deterministic: the same (today, seed) gives the same document, and moving `today` by a
 * week moves every date by a week and changes nothing else.
 */
import type {
  CanonicalDocument,
  Entry,
  Event,
  Faction,
  Game,
  Player,
  Scenario,
  Side,
} from '../../domain/model.ts';
import { isUnplayed } from '../../domain/unplayed-game.ts';
import { buildDemoList } from './build-demo-list.ts';
import {
  COUNTRIES,
  DEMO_ARMIES,
  DEMO_MARGIN_BANDS,
  DEMO_SYSTEM_ID,
  DEMO_SYSTEM_NAME,
  DEPLOYMENT_TEXT,
  MAPS,
  NAME_GROUPS,
  PRIMARY_TEXT,
  SCENARIO_PACKS,
  SECONDARIES,
  TEAM_MASCOTS,
} from './demo-catalogue.ts';
import type { DemoArmy, DemoCountry } from './demo-catalogue.ts';
import { createWorld } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { planCalendar } from './plan-calendar.ts';
import type { Plan } from './plan-calendar.ts';
import { dayString, parseDay, weekday } from '../../domain/calendar-day.ts';
import { playDemoEvent } from './play-demo-event.ts';
import type { Contestant } from './play-demo-event.ts';
import { createRng } from './rng.ts';
import type { Rng } from './rng.ts';

export { DEMO_SYSTEM_ID } from './demo-catalogue.ts';

export const DEMO_NOTICE =
  'Generated demo data: "Demo Fantasy Battles" is an invented game system, and its events, ' +
  'players and results are synthetic, made up to try Muster out. They are not real tournament results.';

export const DEMO_DEFAULT_SEED = 20_240_901;

export interface DemoOptions {
  /** The day the demo is generated for, YYYY-MM-DD: history lies before it, satellites after. */
  today: string;
  seed?: number;
}

const POOL_SIZE = 3_300;
/** Rounds the event under way has played: three of its six, the fourth paired (day two of three). */
const ONGOING_ROUNDS_PLAYED = 3;
const RULES_VERSIONS = ['2.0', '2.1', '2.2'];
/** Weeks before today's weekend where rules versions 2.1 and 2.2 came out. */
const RULES_RELEASES = [-70, -26];
const BASE_URL = 'https://example.org/demo-fantasy/events';

interface DemoPlayer {
  id: string;
  name: string;
  country: DemoCountry;
  skill: number;
  activity: number;
  armies: [DemoArmy, DemoArmy];
}

/** A one-line description of the demo data, with its counts when given the document. */
export function describeDemo(doc?: CanonicalDocument): string {
  if (!doc) return DEMO_NOTICE;
  const events = doc.events ?? [];
  // A paired game is not one played yet (docs/data-model.md#unplayed-games).
  const games = events.reduce(
    (s, e) => s + (e.games ?? []).filter((g) => !isUnplayed(g)).length,
    0,
  );
  const running = events.filter((e) => (e.games ?? []).some(isUnplayed)).length;
  const completed = events.filter((e) => e.status === 'completed').length - running;
  return `${DEMO_NOTICE} (${completed} completed events, ${running} under way, ${games} games, ${doc.players?.length ?? 0} players)`;
}

/**
 * Generates the demo document for `today` (docs/data-model.md,
 * docs/import-formats.md#canonical-musterv1).
 */
export function generateDemo(options: DemoOptions): CanonicalDocument {
  const today = parseDay(options.today);
  const rng = createRng(options.seed ?? DEMO_DEFAULT_SEED);
  const world = createWorld(rng, RULES_VERSIONS.length);
  // Saturday on or before today: events fall on weekends counted from it.
  const saturday = today - ((weekday(today) + 1) % 7);

  const players = makePlayers(rng, world);
  const plans = planCalendar(rng, saturday, today);
  plans.sort((a, b) => a.start - b.start);
  plans.forEach((p, i) => (p.id = `demo-ev-${String(i + 1).padStart(4, '0')}`));
  const majorIds = new Map<string, string>();
  for (const p of plans) if (p.tier === 'major' && p.majorKey) majorIds.set(p.majorKey, p.id ?? '');

  const pick = makePicker(rng, players);
  const usedPlayers = new Set<number>();
  const events = plans.map((plan) => {
    const event = toEvent(plan, majorIds);
    const withEntries = plan.status === 'completed' || plan.status === 'ongoing';
    if (!withEntries) return event;
    const chosen = pick(plan);
    chosen.forEach((i) => usedPlayers.add(i));
    fillEntries(
      rng,
      world,
      event,
      plan,
      chosen.map((i) => players[i]),
    );
    return event;
  });

  const systemFactions: Faction[] = DEMO_ARMIES.flatMap((a) => [
    { id: a.id, system: DEMO_SYSTEM_ID, name: a.name, aliases: a.aliases },
    ...(a.subfactions ?? []).map((s) => ({
      id: s.id,
      system: DEMO_SYSTEM_ID,
      name: s.name,
      parent: a.id,
      aliases: s.aliases,
    })),
  ]);

  return {
    format: 'muster/v1',
    systems: [
      {
        id: DEMO_SYSTEM_ID,
        name: DEMO_SYSTEM_NAME,
        score: { min: 0, max: 20, total: 20 },
        marginBands: DEMO_MARGIN_BANDS,
        demo: true,
        // The rule its generated events are placed by (play-demo-event.ts): points, battle
        // points, then the opponents' points (docs/statistics.md#tie-breakers).
        placementRule: {
          name: "wins, then total battle points, then opponents' wins",
          rank: ['wins', 'score', 'opponentWins'],
        },
      },
    ],
    factions: systemFactions,
    players: [...usedPlayers]
      .sort((a, b) => a - b)
      .map(
        (i): Player => ({
          id: players[i].id,
          name: players[i].name,
          country: players[i].country.code,
        }),
      ),
    scenarios: scenarioCatalogue(),
    events,
  };
}

function scenarioCatalogue(): Scenario[] {
  const s = (kind: Scenario['kind'], name: string, description: string): Scenario => ({
    system: DEMO_SYSTEM_ID,
    kind,
    name,
    description,
  });
  return [
    ...SCENARIO_PACKS.map((p) => s('scenario', p.name, p.description)),
    ...MAPS.map((m) => s('map', m.name, m.description)),
    ...Object.entries(DEPLOYMENT_TEXT).map(([name, text]) => s('deployment', name, text)),
    ...Object.entries(PRIMARY_TEXT).map(([name, text]) => s('primary', name, text)),
    ...SECONDARIES.map((x) => s('secondary', x.name, x.description)),
  ];
}

function makePlayers(rng: Rng, world: DemoWorld): DemoPlayer[] {
  const countryWeights = COUNTRIES.map((c) => c.weight);
  const names = new Set<string>();
  const players: DemoPlayer[] = [];
  for (let i = 0; i < POOL_SIZE; i++) {
    const country = COUNTRIES[rng.weighted(countryWeights)];
    const group = NAME_GROUPS[country.names];
    let name = '';
    for (let attempt = 0; attempt < 6 && (name === '' || names.has(name)); attempt++) {
      name = `${rng.pick(group.given)} ${rng.pick(group.prefix)}${rng.pick(group.suffix)}`;
    }
    if (names.has(name)) name = name.replace(' ', ` ${String.fromCharCode(65 + rng.int(0, 25))}. `);
    names.add(name);
    const skill = rng.normal() * 0.7;
    // Good players lean a little towards strong armies, so "strong army or strong players?" has
    // an answer worth asking for.
    const weights = DEMO_ARMIES.map(
      (a) => a.popularity * Math.exp(1.0 * skill * (world.armyStrength.get(a.id)?.[0] ?? 0)),
    );
    const main = DEMO_ARMIES[rng.weighted(weights)];
    let second = DEMO_ARMIES[rng.weighted(weights)];
    if (second === main) second = DEMO_ARMIES[rng.weighted(weights)];
    players.push({
      // Knuth's multiplicative hash is a bijection on 32 bits: opaque yet unique ids.
      id: `demo-p${(Math.imul(i + 1, 2654435761) >>> 0).toString(36).padStart(7, '0')}`,
      name,
      country,
      skill,
      activity: Math.exp(rng.normal() * 0.9),
      armies: [main, second],
    });
  }
  return players;
}

/** Chooses each event's field, mostly locals, never a player booked the same weekend. */
function makePicker(rng: Rng, players: DemoPlayer[]): (plan: Plan) => number[] {
  const cumulative = (members: number[]): { members: number[]; cum: number[] } => {
    let total = 0;
    return { members, cum: members.map((i) => (total += players[i].activity)) };
  };
  const draw = (pool: { members: number[]; cum: number[] }): number => {
    const r = rng.next() * pool.cum[pool.cum.length - 1];
    let lo = 0;
    let hi = pool.cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pool.cum[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return pool.members[lo];
  };
  const all = cumulative(players.map((_, i) => i));
  const byCountry = new Map<string, { members: number[]; cum: number[] }>();
  for (const c of COUNTRIES) {
    const members = players.flatMap((p, i) => (p.country === c ? [i] : []));
    if (members.length) byCountry.set(c.code, cumulative(members));
  }
  const busy = new Map<number, Set<number>>();

  return (plan) => {
    const taken = busy.get(plan.week) ?? new Set<number>();
    busy.set(plan.week, taken);
    const chosen: number[] = [];
    const local = byCountry.get(plan.country.code);
    for (let attempts = 0; chosen.length < plan.size && attempts < plan.size * 60; attempts++) {
      const i = draw(local && rng.chance(plan.local) ? local : all);
      if (taken.has(i)) continue;
      taken.add(i);
      chosen.push(i);
    }
    for (let i = 0; chosen.length < plan.size && i < players.length; i++) {
      if (!taken.has(i)) {
        taken.add(i);
        chosen.push(i);
      }
    }
    return chosen;
  };
}

function rulesVersionIndex(week: number): number {
  return RULES_RELEASES.filter((w) => week >= w).length;
}

function toEvent(plan: Plan, majorIds: Map<string, string>): Event {
  const id = plan.id ?? '';
  const satellite = plan.tier === 'satellite';
  const event: Event = {
    id,
    system: DEMO_SYSTEM_ID,
    name: plan.name,
    start: dayString(plan.start),
    end: dayString(plan.start + plan.days - 1),
    status: plan.status,
    format: plan.format,
    tier: plan.tier,
    qualifiesFor: satellite && plan.majorKey ? (majorIds.get(plan.majorKey) ?? null) : null,
    slots: satellite
      ? Math.min(4, Math.max(1, Math.round((plan.capacity ?? plan.size) / 16)))
      : null,
    participants: plan.size,
    capacity: plan.capacity,
    rounds: plan.rounds,
    pointsLimit: plan.pointsLimit,
    rulesVersion: RULES_VERSIONS[rulesVersionIndex(plan.week)],
    country: plan.country.code,
    region: plan.country.region,
    city: plan.online ? null : plan.city,
    venue: plan.venue,
    location: plan.online ? null : { lat: plan.lat, lon: plan.lon },
    online: plan.online,
    url: `${BASE_URL}/${id}`,
    registrationUrl: plan.status === 'scheduled' ? `${BASE_URL}/${id}/register` : null,
  };
  return event;
}

function fillEntries(
  rng: Rng,
  world: DemoWorld,
  event: Event,
  plan: Plan,
  field: DemoPlayer[],
): void {
  const version = rulesVersionIndex(plan.week);
  let teams: number[][] | null = null;
  const teamNames: string[] = [];
  if (plan.teamSize) {
    // Team mates come from the same country, so sort the field by country before cutting teams.
    const order = field
      .map((_, i) => i)
      .sort((a, b) => field[a].country.code.localeCompare(field[b].country.code) || a - b);
    teams = [];
    for (let t = 0; t * plan.teamSize < order.length; t++) {
      teams.push(order.slice(t * plan.teamSize, (t + 1) * plan.teamSize));
      const home = field[order[t * plan.teamSize]].country;
      let name = `${rng.pick(home.cities).city} ${rng.pick(TEAM_MASCOTS)}`;
      while (teamNames.includes(name)) name += ' II';
      teamNames.push(name);
    }
  }
  const teamOf = new Map<number, number>();
  teams?.forEach((members, t) => members.forEach((m) => teamOf.set(m, t)));

  const contestants: Contestant[] = [];
  const entries: Entry[] = field.map((p, i) => {
    const army = rng.chance(0.78) ? p.armies[0] : p.armies[1];
    const sub = army.subfactions && rng.chance(0.35) ? rng.pick(army.subfactions).id : null;
    const { list, power } = buildDemoList(rng, world, army, plan.pointsLimit);
    const team = teamOf.get(i) ?? null;
    contestants.push({
      player: p.id,
      faction: army.id,
      subfaction: sub,
      team,
      strength: p.skill + (world.armyStrength.get(army.id)?.[version] ?? 0) + power,
    });
    const entry: Entry = { player: p.id, faction: army.id, list };
    if (sub) entry.subfaction = sub;
    if (team !== null) entry.team = teamNames[team];
    return entry;
  });
  event.entries = entries;
  if (plan.status !== 'completed' && plan.status !== 'ongoing') return;
  const played = playDemoEvent(rng, world, {
    eventId: event.id,
    rounds: plan.rounds,
    contestants,
    teams,
    detailed: plan.detailed,
  });
  if (plan.status === 'ongoing') {
    // Stored as completed, as an import of a pairing-app export of a round in progress is: the
    // snapshot serves completed events only (src/store/read-facts.ts), and its unplayed round
    // is what makes it running (docs/data-model.md#unplayed-games).
    event.status = 'completed';
    event.games = roundsSoFar(played.games);
    return;
  }
  // A team event places teams, not players (docs/statistics.md#team-events): its entries give
  // their team and no placement of their own.
  if (teams === null) entries.forEach((e, i) => (e.placement = played.placements[i]));
  event.games = played.games;
}

/**
 * The event being played today as it stands on its second day (docs/data-model.md#unplayed-games):
 * the first rounds played, the next one paired with no result, the rest not yet paired. Swiss
 * pairs each round from the results before it, so cutting a played-out event gives the pairings
 * it would have had. No placements: nobody has finished.
 */
function roundsSoFar(games: Game[]): Game[] {
  return games.flatMap((g): Game[] => {
    const round = g.round ?? 0;
    if (round <= ONGOING_ROUNDS_PLAYED) return [g];
    if (round > ONGOING_ROUNDS_PLAYED + 1) return [];
    const [a, b] = g.sides;
    const paired = (s: Side): Side => ({
      player: s.player,
      faction: s.faction,
      ...(s.subfaction ? { subfaction: s.subfaction } : {}),
    });
    // The round's scenario and map are announced with its pairings; the secondaries are
    // chosen at the table.
    const { secondaries: _chosen, ...scenario } = g.scenario ?? {};
    return [{ id: g.id, round, table: g.table, scenario, sides: [paired(a), paired(b)] }];
  });
}
