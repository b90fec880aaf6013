/**
 * A finished event cut into the steps `muster replay` imports one by one
 * (docs/operations.md#replaying-an-event): first its first round paired and nothing played,
 * then each round's results with the next round's pairings, last the event as the file has it.
 * Each step is a whole canonical document, so it goes through the normal import path.
 */
import type { CanonicalDocument, Event, Game, Side } from '../domain/model.ts';

/** One step of a replay: what it imports and what it says it did. */
export interface ReplayStep {
  /** The rounds with results in this step (0 before the first). */
  readonly played: number;
  /** The round paired and not played in this step; null at the last step. */
  readonly paired: number | null;
  readonly document: CanonicalDocument;
}

/** Why a file cannot be replayed: the CLI prints it and exits 1. */
export class ReplayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayError';
  }
}

/**
 * The documents of a file (one canonical document, or NDJSON: one a line, as `muster export`
 * writes them) merged into one (docs/import-formats.md#ndjson).
 */
export function readReplayDocument(text: string, source: string): CanonicalDocument {
  const parsed: unknown[] = [];
  try {
    parsed.push(JSON.parse(text));
  } catch {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        parsed.push(JSON.parse(line));
      } catch {
        throw new ReplayError(`${source}: line ${i + 1} is not JSON (canonical JSON or NDJSON)`);
      }
    });
  }
  const docs = parsed.filter(
    (d): d is CanonicalDocument =>
      typeof d === 'object' && d !== null && (d as { format?: unknown }).format === 'muster/v1',
  );
  if (docs.length === 0 || docs.length !== parsed.length)
    throw new ReplayError(`${source}: not a muster/v1 document (canonical JSON or NDJSON)`);
  return {
    format: 'muster/v1',
    systems: docs.flatMap((d) => d.systems ?? []),
    factions: docs.flatMap((d) => d.factions ?? []),
    players: docs.flatMap((d) => d.players ?? []),
    scenarios: docs.flatMap((d) => d.scenarios ?? []),
    events: docs.flatMap((d) => d.events ?? []),
  };
}

/** The event to replay: the one named, else the file's only event with games. */
export function pickReplayEvent(doc: CanonicalDocument, id?: string): Event {
  const events = doc.events ?? [];
  if (id !== undefined) {
    const named = events.find((e) => e.id === id);
    if (named === undefined) throw new ReplayError(`the file holds no event "${id}"`);
    return named;
  }
  const played = events.filter((e) => (e.games?.length ?? 0) > 0);
  if (played.length !== 1)
    throw new ReplayError(
      `the file holds ${played.length} events with games; name one with --event ID`,
    );
  return played[0];
}

/** A side as its pairing shows it: who plays what, with the list they brought. */
function pairedSide(s: Side): Side {
  return {
    player: s.player,
    faction: s.faction,
    ...(s.subfaction != null ? { subfaction: s.subfaction } : {}),
    ...(s.list != null ? { list: s.list } : {}),
  };
}

/** A game as paired, before it is played (docs/data-model.md#unplayed-games). */
function pairedGame(g: Game): Game {
  // The scenario is announced with the pairings; the secondaries are chosen at the table.
  const { secondaries: _chosen, ...scenario } = g.scenario ?? {};
  return {
    id: g.id,
    round: g.round,
    table: g.table,
    ...(g.scenario != null ? { scenario } : {}),
    sides: [pairedSide(g.sides[0]), pairedSide(g.sides[1])],
  };
}

/**
 * The steps of a replay of `event` (docs/operations.md#replaying-an-event). Refused when a game
 * has no round number: there is no round to play it in.
 */
export function replaySteps(doc: CanonicalDocument, event: Event): ReplayStep[] {
  const games = event.games ?? [];
  if (games.length === 0) throw new ReplayError(`event "${event.id}" has no games to replay`);
  const unnumbered = games.filter((g) => !Number.isInteger(g.round) || (g.round ?? 0) < 1);
  if (unnumbered.length > 0)
    throw new ReplayError(
      `event "${event.id}": ${unnumbered.length} of its ${games.length} games have no round number (game "${unnumbered[0].id}"); a replay plays the event round by round`,
    );
  const rounds = [...new Set(games.map((g) => g.round!))].sort((a, b) => a - b);
  const reference: CanonicalDocument = {
    format: 'muster/v1',
    systems: doc.systems ?? [],
    factions: doc.factions ?? [],
    players: doc.players ?? [],
    scenarios: doc.scenarios ?? [],
  };
  const steps: ReplayStep[] = rounds.map((round, i) => {
    const before = i === 0 ? 0 : rounds[i - 1];
    const running: Event = {
      // The status stays the file's: the snapshot serves completed events (src/store/read-facts.ts),
      // and an unplayed game is what makes one running (docs/data-model.md#unplayed-games).
      ...event,
      // Nobody has a final place before the last round is played.
      ...(event.entries !== undefined
        ? { entries: event.entries.map(({ placement: _final, ...entry }) => entry) }
        : {}),
      games: games.flatMap((g) =>
        g.round! <= before ? [g] : g.round === round ? [pairedGame(g)] : [],
      ),
    };
    return {
      played: before,
      paired: round,
      document:
        i === 0 ? { ...reference, events: [running] } : { format: 'muster/v1', events: [running] },
    };
  });
  steps.push({
    played: rounds.at(-1)!,
    paired: null,
    document: { format: 'muster/v1', events: [event] },
  });
  return steps;
}
