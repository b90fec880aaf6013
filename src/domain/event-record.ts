/**
 * An event's own fields as the store holds them and upcoming-satellites reads them
 * (docs/data-model.md#event), without its entries and games.
 */
export interface EventRecord {
  id: string;
  system: string;
  name: string;
  start: string;
  end: string | null;
  status: string;
  tier: string;
  qualifiesFor: string | null;
  slots: number | null;
  participants: number | null;
  capacity: number | null;
  country: string | null;
  city: string | null;
  venue: string | null;
  location: { lat: number; lon: number } | null;
  online: boolean | null;
  url: string | null;
  registrationUrl: string | null;
}
