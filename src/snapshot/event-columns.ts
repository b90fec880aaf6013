/** A snapshot's events as columns (docs/architecture.md#the-snapshot-and-its-lifecycle). */
import { dayNumber } from '../domain/calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS } from '../domain/model.ts';
import type { EventFact } from '../store/read-facts.ts';
import type { DictionaryBuilder } from './dictionary.ts';
import { flag } from './fact-values.ts';
import type { SnapshotEvents } from './snapshot.ts';

/** SnapshotEvents while it is built: rounds are still filled in from the games. */
export type EventColumns = SnapshotEvents & { readonly rounds: Int32Array };

/** The events' columns; countries and rules versions are added to their dictionaries. */
export function buildEventColumns(
  facts: readonly EventFact[],
  idIndex: ReadonlyMap<string, number>,
  systemIndex: ReadonlyMap<string, number>,
  countries: DictionaryBuilder,
  rulesVersions: DictionaryBuilder,
): EventColumns {
  const n = facts.length;
  const events = {
    count: n,
    ids: facts.map((e) => e.id),
    names: facts.map((e) => e.name),
    idIndex,
    system: new Int32Array(n),
    startDay: new Int32Array(n),
    participants: new Int32Array(n),
    format: new Uint8Array(n),
    tier: new Uint8Array(n),
    country: new Int32Array(n),
    rulesVersion: new Int32Array(n),
    rounds: new Int32Array(n),
    online: new Int8Array(n),
    teamScoreCap: new Float64Array(n),
  };
  facts.forEach((e, i) => {
    events.system[i] = systemIndex.get(e.system_id) ?? 0;
    events.startDay[i] = dayNumber(e.start_date);
    events.participants[i] = e.participants ?? -1;
    events.format[i] = Math.max(0, (EVENT_FORMATS as readonly string[]).indexOf(e.format));
    events.tier[i] = Math.max(0, (EVENT_TIERS as readonly string[]).indexOf(e.tier));
    events.country[i] = countries.add(e.country?.toUpperCase());
    events.rulesVersion[i] = rulesVersions.add(e.rules_version);
    events.rounds[i] = e.rounds ?? -1;
    events.online[i] = flag(e.online);
    events.teamScoreCap[i] = e.team_score_cap === null ? NaN : Number(e.team_score_cap);
  });
  return events;
}

/** Fills in the rounds of events that declared none from the highest round of their games. */
export function fillUndeclaredRounds(
  events: EventColumns,
  facts: readonly EventFact[],
  gameEvent: Int32Array,
  gameRound: Int32Array,
): void {
  for (let g = 0; g < gameEvent.length; g++) {
    const e = gameEvent[g];
    if (facts[e].rounds === null && gameRound[g] > events.rounds[e]) {
      events.rounds[e] = gameRound[g];
    }
  }
}
