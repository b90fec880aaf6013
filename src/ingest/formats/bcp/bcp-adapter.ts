/**
 * Pairing-app event exports (docs/import-formats.md#pairing-app-exports): an event as the
 * pairing app's API returns it, in the three documents open-source scrapers save (`event`,
 * `players`, `pairings`), mapped onto the canonical model. Armies and parent armies become
 * factions and subfactions, byes are no game, a pairing without any result is unplayed, a dropped player
 * keeps the rounds they played, game points become scores where the system's score rules take
 * them, and a given result stands over the points. Each pairing is one game, rejected alone.
 */
import type { Reject } from '../../../domain/import-batch.ts';
import type { ArmyList, Entry, Result, ScoreRules, Side } from '../../../domain/model.ts';
import { cleanName, nameKey } from '../../../domain/normalize-name.ts';
import type { RawBatch } from '../../import-types.ts';

type Json = Record<string, unknown>;
type Origin = NonNullable<RawBatch['events'][number]['gameOrigins']>[number];

/** The three documents of one event, and the files (or places in one file) they came from. */
export interface BcpExport {
  event: unknown;
  players: unknown;
  pairings: unknown;
  sources: { event: string; players: string; pairings: string };
  /** What the app's pages held, when the parts came as pages (src/ingest/formats/bcp/bcp-pages.ts). */
  pages?: string | null;
}

/** The game system an export's games belong to, as the import resolved it. */
export interface BcpSystem {
  id: string;
  score: ScoreRules | null;
}

/** What one export added, for the import's notes. */
export interface BcpTally {
  eventId: string;
  games: number;
  byes: number;
  unplayed: number;
  dropped: number;
  pointsLeftOut: number;
  /** Players only the pairings name (none in players), with the name a pairing gives them. */
  pairingOnly: Map<string, string | null>;
}

const RESULTS: Record<number, Result> = { 2: 'win', 1: 'draw', 0: 'loss' };

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== ''
    ? cleanName(v)
    : typeof v === 'number'
      ? String(v)
      : null;

/** A name written as a string or as `{name}`. */
const named = (v: unknown): string | null => (isObject(v) ? text(v.name) : text(v));

/** An array, or an object keyed by index as some scrapers save them, with each item's place. */
export function indexed(value: unknown, key: string): Array<{ at: string; value: unknown }> | null {
  if (Array.isArray(value)) return value.map((v, i) => ({ at: `${key}[${i}]`, value: v }));
  if (isObject(value))
    return Object.entries(value).map(([k, v]) => ({ at: `${key}["${k}"]`, value: v }));
  return null;
}

/** The calendar day of a date or timestamp as written (`2025-05-03T09:00:00Z` is 2025-05-03). */
function day(v: unknown): string | null {
  const s = text(v);
  const match = s === null ? null : /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(s);
  return match === null ? s : match[1];
}

/** Army and parent army: one faction when they name the same, else parent and subfaction. */
function factions(
  army: string | null,
  parent: string | null,
): { faction: string | null; subfaction: string | null } {
  if (parent === null || (army !== null && nameKey(army) === nameKey(parent))) {
    return { faction: army ?? parent, subfaction: null };
  }
  return { faction: parent, subfaction: army };
}

/** A player's army as players.json writes it: `army.name`, and a parent army if any. */
function playerArmy(p: Json): { faction: string | null; subfaction: string | null } {
  const army = isObject(p.army) ? p.army : null;
  return factions(named(p.army), named(army?.parentArmy) ?? named(p.parentArmy));
}

/** Thrown for a field the export gets wrong: the JSON Pointer into the pairing and why. */
class FieldError extends Error {
  readonly field: string;
  constructor(field: string, reason: string) {
    super(reason);
    this.field = field;
  }
}

interface SideIn {
  player: string | null;
  /** The name the pairing gives its player (firstName lastName), if any. */
  name: string | null;
  faction: string | null;
  subfaction: string | null;
  result: Result | null;
  points: number | null;
}

function side(raw: Json, key: 'player1' | 'player2', known: Map<string, BcpPlayer>): SideIn {
  const game = isObject(raw.game) ? raw.game : {};
  const code = game.gameResult;
  if (code !== undefined && code !== null && !(typeof code === 'number' && code in RESULTS)) {
    throw new FieldError(
      `/${key}/game/gameResult`,
      `gameResult ${JSON.stringify(code)} is not 2 (win), 1 (draw) or 0 (loss)`,
    );
  }
  const points = game.gamePoints;
  if (
    points !== undefined &&
    points !== null &&
    !(typeof points === 'number' && Number.isFinite(points))
  ) {
    throw new FieldError(
      `/${key}/game/gamePoints`,
      `gamePoints ${JSON.stringify(points)} is not a number`,
    );
  }
  const player = known.get(text(raw.userId) ?? '') ?? known.get(text(raw.objectId) ?? '');
  const id = player?.id ?? text(raw.userId) ?? text(raw.objectId);
  const own = factions(named(raw.army), named(raw.parentArmy));
  const { faction, subfaction } = own.faction !== null ? own : (player?.army ?? own);
  if (faction === null) throw new FieldError(`/${key}/army`, 'no army, here or in players');
  const name = [text(raw.firstName), text(raw.lastName)].filter((s) => s !== null).join(' ');
  return {
    player: id,
    name: name === '' ? null : name,
    faction,
    subfaction,
    result: typeof code === 'number' ? RESULTS[code] : null,
    points: typeof points === 'number' ? points : null,
  };
}

/** Whether the system's score rules take these points as the two scores. */
function pointsAreScores(score: ScoreRules | null, a: number | null, b: number | null): boolean {
  if (a === null || b === null) return false;
  if (score === null) return true;
  const onScale = (x: number) => x >= score.min && x <= score.max;
  const total = score.total;
  return (
    onScale(a) &&
    onScale(b) &&
    (total === null || total === undefined || Math.abs(a + b - total) < 1e-9)
  );
}

interface BcpPlayer {
  id: string;
  army: { faction: string | null; subfaction: string | null };
}

/** Players: one canonical player and one entry each; bad ones rejected by their place. */
function addPlayers(
  batch: RawBatch,
  x: BcpExport,
  known: Map<string, BcpPlayer>,
  tally: BcpTally,
  origins: Origin[],
): Entry[] {
  const entries: Entry[] = [];
  const list = indexed(x.players, 'players');
  if (list === null) {
    batch.rejects.push(
      fileReject(x.sources.players, 'players must be an array or an object keyed by index'),
    );
    return entries;
  }
  for (const { at, value } of list) {
    const p = isObject(value) ? value : null;
    const id = text(p?.userId) ?? text(p?.objectId);
    if (p === null || id === null) {
      batch.rejects.push({
        kind: 'player',
        source: x.sources.players,
        record: at,
        field: p === null ? null : '/userId',
        reason:
          p === null ? 'a player must be an object' : 'a player needs a userId (or an objectId)',
        payload: value ?? null,
      });
      continue;
    }
    const name = [text(p.firstName), text(p.lastName)].filter((s) => s !== null).join(' ');
    batch.players.push({
      source: x.sources.players,
      record: `${at} (${id})`,
      value: name === '' ? { id } : { id, name },
      implied: true,
    });
    const army = playerArmy(p);
    const entry: BcpPlayer = { id, army };
    known.set(id, entry);
    const registration = text(p.objectId);
    if (registration !== null) known.set(registration, entry);
    if (p.dropped === true) tally.dropped++;
    entries.push({
      player: id,
      faction: army.faction,
      subfaction: army.subfaction,
      team: named(p.team),
    });
    origins.push({ source: x.sources.players, payload: value, record: `${at} (${id})` });
  }
  return entries;
}

function fileReject(source: string, reason: string): Reject {
  return { kind: 'file', source, record: null, field: null, reason, payload: null };
}

/** One pairing as a canonical game (unplayed while it has no result), or null for a bye. */
function pairingGame(
  raw: Json,
  at: string,
  eventId: string,
  system: BcpSystem,
  known: Map<string, BcpPlayer>,
  tally: BcpTally,
): Json | null {
  if (!isObject(raw.player1) || !isObject(raw.player2)) {
    tally.byes++;
    return null;
  }
  const a = side(raw.player1, 'player1', known);
  const b = side(raw.player2, 'player2', known);
  // Neither results nor points: paired, not played yet (docs/data-model.md#unplayed-games).
  const unplayed = a.result === null && b.result === null && a.points === null && b.points === null;
  if (unplayed) tally.unplayed++;
  for (const s of [a, b]) {
    if (s.player !== null && !known.has(s.player)) tally.pairingOnly.set(s.player, s.name);
  }
  const scores = pointsAreScores(system.score, a.points, b.points);
  if (!scores && (a.points !== null || b.points !== null)) {
    // Points it cannot take and no result: a game was played, but its outcome is unknown.
    if (a.result === null && b.result === null)
      throw new FieldError(
        '/player1/game/gameResult',
        'no result given and no scores to derive it from',
      );
    tally.pointsLeftOut++;
  }
  const round = typeof raw.round === 'number' ? raw.round : null;
  const pair =
    a.player !== null && b.player !== null ? [a.player, b.player].sort().join('|') : null;
  const id =
    text(raw.objectId) ??
    (pair !== null && round !== null ? `bcp:${eventId}:r${round}:${pair}` : `bcp:${eventId}:${at}`);
  const out = (s: SideIn): Side => ({
    player: s.player,
    faction: s.faction as string,
    subfaction: s.subfaction,
    score: scores ? s.points : null,
    result: s.result,
  });
  return { id, round: raw.round ?? null, table: raw.table ?? null, sides: [out(a), out(b)] };
}

/**
 * Players only the pairings name become players with the name the pairings give them, so that
 * their rosters match by name as by id; one whose roster matched gets an entry for its list
 * (docs/import-formats.md#matching-rosters-to-players).
 */
function addPairingPlayers(
  batch: RawBatch,
  x: BcpExport,
  players: Map<string, string | null>,
  entries: Entry[],
  lists: Map<string, ArmyList>,
): void {
  for (const [id, name] of players) {
    batch.players.push({
      source: x.sources.pairings,
      record: `pairings (${id})`,
      value: name === null ? { id } : { id, name },
      implied: true,
    });
    const list = lists.get(id);
    if (list !== undefined) entries.push({ player: id, list });
  }
}

/**
 * Adds one export's players and its event (with entries and games) to the batch. `lists` are
 * rosters already matched to players, by player id (docs/import-formats.md#matching-rosters-to-players).
 */
export function addBcpExport(
  batch: RawBatch,
  x: BcpExport,
  system: BcpSystem,
  lists: Map<string, ArmyList> = new Map(),
): BcpTally {
  const tally: BcpTally = {
    eventId: '',
    games: 0,
    byes: 0,
    unplayed: 0,
    dropped: 0,
    pointsLeftOut: 0,
    pairingOnly: new Map(),
  };
  if (!isObject(x.event)) {
    batch.rejects.push(fileReject(x.sources.event, 'the event must be a JSON object'));
    return tally;
  }
  const e = x.event;
  const eventId = text(e.objectId) ?? text(e.id) ?? '';
  tally.eventId = eventId;
  const known = new Map<string, BcpPlayer>();
  const entryOrigins: Origin[] = [];
  const entries = addPlayers(batch, x, known, tally, entryOrigins).map((entry) =>
    lists.has(entry.player) ? { ...entry, list: lists.get(entry.player) } : entry,
  );
  const games: unknown[] = [];
  const gameOrigins: Origin[] = [];
  const pairings = indexed(x.pairings, 'pairings');
  if (pairings === null)
    batch.rejects.push(
      fileReject(x.sources.pairings, 'pairings must be an array or an object keyed by index'),
    );
  for (const { at, value } of pairings ?? []) {
    const id = isObject(value) ? text(value.objectId) : null;
    const record = id === null ? at : `${at} (${id})`;
    try {
      if (!isObject(value)) throw new FieldError('/', 'a pairing must be an object');
      const game = pairingGame(value, at, eventId, system, known, tally);
      if (game === null) continue;
      games.push(game);
      gameOrigins.push({ source: x.sources.pairings, payload: value, record });
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      batch.rejects.push({
        kind: 'game',
        source: x.sources.pairings,
        record,
        field: error.field,
        reason: error.message,
        payload: value ?? null,
      });
    }
  }
  tally.games = games.length;
  // Participants are the players the export registers; a pairing-only player's entry is not one.
  const participants = entries.length;
  addPairingPlayers(batch, x, tally.pairingOnly, entries, lists);
  // players.json gives an army without its parent: the pairings, which name it, complete it.
  const parents = new Map<string, { faction: string; subfaction: string }>();
  for (const g of games as Array<{ sides: Side[] }>) {
    for (const s of g.sides) {
      if (s.player && s.subfaction && !parents.has(s.player))
        parents.set(s.player, { faction: s.faction, subfaction: s.subfaction });
    }
  }
  for (const entry of entries) {
    const p = parents.get(entry.player);
    if (
      p &&
      entry.subfaction == null &&
      entry.faction &&
      nameKey(entry.faction) === nameKey(p.subfaction)
    )
      Object.assign(entry, p);
  }
  const country = text(e.country);
  const rounds = e.numberOfRounds ?? e.rounds;
  batch.events.push({
    source: x.sources.event,
    record: `event ${eventId || '(no objectId)'}`,
    value: {
      id: eventId,
      system: system.id,
      name: text(e.name) ?? eventId,
      start: day(e.eventDate),
      ...(day(e.eventEndDate ?? e.endDate) === null
        ? {}
        : { end: day(e.eventEndDate ?? e.endDate) }),
      status: 'completed',
      ...(typeof rounds === 'number' ? { rounds } : {}),
      ...(text(e.city) === null ? {} : { city: text(e.city) }),
      // A country the export spells out in full is left out: the model keeps ISO codes only.
      ...(country !== null && /^[A-Za-z]{2}$/.test(country) ? { country } : {}),
      participants,
      entries,
      games,
    },
    gameOrigins,
    entryOrigins,
  });
  return tally;
}
