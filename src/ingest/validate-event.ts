/**
 * Validation of events with their entries and games (docs/import-formats.md#validation). A
 * failing record is rejected whole and alone: a bad game does not take its event with it, a bad
 * event takes its games.
 */
import type { Entry, Event, Game, GameSystem } from '../domain/model.ts';
import type { ValidEvent } from '../domain/import-batch.ts';
import { isRealDate } from '../domain/calendar-day.ts';
import { isHttpUrl } from '../domain/http-url.ts';
import { cleanName } from '../domain/normalize-name.ts';
import type { RawRecord } from './import-types.ts';
import { checkGame, cleanList } from './validate-game.ts';
import { RecordError, checkers, duplicateKeys, idOf, stripNulls } from './validation-context.ts';
import type { ValidationContext } from './validation-context.ts';

/** How often each game id occurs across the batch's events. */
function countGameIds(records: RawRecord[]): Map<string, number> {
  const count = new Map<string, number>();
  for (const r of records) {
    const games = (r.value as { games?: unknown })?.games;
    if (!Array.isArray(games)) continue;
    for (const g of games) {
      const id = (g as { id?: unknown })?.id;
      if (typeof id === 'string') count.set(id, (count.get(id) ?? 0) + 1);
    }
  }
  return count;
}

/** The event's links, opened by whoever follows them: absolute http(s) URLs only. */
function checkLinks(e: Event): void {
  for (const field of ['url', 'registrationUrl'] as const) {
    const link = e[field];
    if (typeof link === 'string' && link !== '' && !isHttpUrl(link)) {
      throw new RecordError(
        `/${field}`,
        `${field} ${JSON.stringify(link.slice(0, 80))} is not an absolute http:// or https:// URL; ` +
          'give the full web address, e.g. https://example.org/register',
      );
    }
  }
}

/** The event-level rules: unique id, real dates in order, a known system, web links. */
function checkEventFields(ctx: ValidationContext, e: Event, duplicate: boolean): void {
  if (duplicate)
    throw new RecordError('/id', `event id "${e.id}" appears more than once in this batch`);
  if (!isRealDate(e.start)) throw new RecordError('/start', `"${e.start}" is not a calendar date`);
  if (e.end) {
    if (!isRealDate(e.end)) throw new RecordError('/end', `"${e.end}" is not a calendar date`);
    if (e.end < e.start) throw new RecordError('/end', `end ${e.end} is before start ${e.start}`);
  }
  if (ctx.resolveSystem(e.system) === null)
    throw new RecordError('/system', `unknown system "${e.system}"`);
  checkLinks(e);
}

function validateEntries(
  ctx: ValidationContext,
  r: RawRecord,
  e: Event,
  system: GameSystem,
  rawEntries: unknown[],
): Entry[] {
  const entries: Entry[] = [];
  const seenPlayers = new Set<string>();
  rawEntries.forEach((value, i) => {
    const origin = r.entryOrigins?.[i];
    const er: RawRecord = {
      source: origin?.source ?? r.source,
      record: origin?.record ?? `${r.record} entry ${i}`,
      value,
    };
    const payload = origin?.payload ?? value;
    const entry = ctx.structured<Entry>('entry', er, checkers.entry, value, payload);
    if (entry === null) return;
    try {
      if (seenPlayers.has(entry.player)) {
        throw new RecordError(
          '/player',
          `player "${entry.player}" has two entries in event "${e.id}"`,
        );
      }
      seenPlayers.add(entry.player);
      const faction = entry.faction
        ? ctx.resolveFaction(system.id, entry.faction, '/faction')
        : null;
      entries.push({
        player: entry.player,
        faction,
        subfaction: entry.subfaction
          ? ctx.resolveFaction(system.id, entry.subfaction, '/subfaction', faction)
          : null,
        team: entry.team ?? null,
        placement: entry.placement ?? null,
        list: cleanList(entry.list),
      });
      ctx.referencedPlayers.add(entry.player);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      ctx.reject('entry', er, error.field, error.message, payload);
    }
  });
  return entries;
}

function validateGames(
  ctx: ValidationContext,
  r: RawRecord,
  system: GameSystem,
  rawGames: unknown[],
  gameIdCount: Map<string, number>,
  valid: ValidEvent,
): void {
  rawGames.forEach((value, i) => {
    const id = (value as { id?: unknown })?.id;
    const origin = r.gameOrigins?.[i];
    const gr: RawRecord = {
      source: origin?.source ?? r.source,
      record: origin?.record ?? (typeof id === 'string' ? `game ${id}` : `${r.record} game ${i}`),
      value,
    };
    const payload = origin?.payload ?? value;
    const g = ctx.structured<Game>('game', gr, checkers.game, value, payload);
    if (g === null) return;
    try {
      if ((gameIdCount.get(g.id) ?? 0) > 1) {
        throw new RecordError('/id', `game id "${g.id}" appears more than once in this batch`);
      }
      valid.games.push({ game: checkGame(ctx, system, g), source: gr.source, record: gr.record });
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      ctx.reject('game', gr, error.field, error.message, payload);
    }
  });
}

/** Events, then their entries and games one by one, into the context's batch. */
export function validateEvents(ctx: ValidationContext, records: RawRecord[]): void {
  const dupEvents = duplicateKeys(records, idOf);
  const gameIdCount = countGameIds(records);
  for (const r of records) {
    const e = ctx.structured<Event>('event', r, checkers.event);
    if (e === null) continue;
    try {
      checkEventFields(ctx, e, dupEvents.has(e.id));
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      ctx.reject('event', r, error.field, error.message);
      continue;
    }
    const system = ctx.known.systems.get(e.system) as GameSystem;
    const { entries: rawEntries, games: rawGames, ...fields } = e;
    const event = stripNulls({
      ...fields,
      name: cleanName(fields.name),
      status: fields.status ?? 'completed',
      format: fields.format ?? 'singles',
      tier: fields.tier ?? 'standard',
      country: fields.country ? fields.country.toUpperCase() : null,
    }) as ValidEvent['event'];
    const valid: ValidEvent = {
      event,
      entries: null,
      games: [],
      source: r.source,
      record: r.record,
    };
    if (Array.isArray(rawEntries)) valid.entries = validateEntries(ctx, r, e, system, rawEntries);
    if (Array.isArray(rawGames)) validateGames(ctx, r, system, rawGames, gameIdCount, valid);
    ctx.batch.events.push(valid);
  }
}
