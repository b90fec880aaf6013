/**
 * Reads the event and player fields the snapshot does not carry (it holds completed games
 * only): satellites with their majors for upcoming-satellites, and player names and countries
 * for rankings. Called once per data version by the routes that cache the result.
 */
import type { EventRecord } from '../domain/event-record.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

/** Every satellite and every event a satellite qualifies for (whatever their status). */
export async function readSatelliteEvents(target: StoreOrHandle): Promise<EventRecord[]> {
  const db = handleOf(target);
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('tier', '=', 'satellite'),
        eb(
          'id',
          'in',
          eb
            .selectFrom('events as s')
            .select('s.qualifies_for')
            .where('s.qualifies_for', 'is not', null),
        ),
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    system: r.system_id,
    name: r.name,
    start: r.start_date,
    end: r.end_date,
    status: r.status,
    tier: r.tier,
    qualifiesFor: r.qualifies_for,
    slots: r.slots === null ? null : Number(r.slots),
    participants: r.participants === null ? null : Number(r.participants),
    capacity: r.capacity === null ? null : Number(r.capacity),
    country: r.country,
    city: r.city,
    venue: r.venue,
    location: r.lat === null || r.lon === null ? null : { lat: Number(r.lat), lon: Number(r.lon) },
    online: r.online === null ? null : Number(r.online) === 1,
    url: r.url,
    registrationUrl: r.registration_url,
  }));
}

export interface PlayerRecord {
  id: string;
  name: string | null;
  country: string | null;
}

/** Every player's id, name and country. */
export async function readPlayers(target: StoreOrHandle): Promise<PlayerRecord[]> {
  const db = handleOf(target);
  return db.selectFrom('players').select(['id', 'name', 'country']).orderBy('id').execute();
}
