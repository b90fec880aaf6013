/** The parts of Muster's answers the dashboard reads (the OpenAPI document has them all). */
export interface Counted<T = string> {
  value: T;
  events: number;
  games: number;
}

export interface SystemOptions {
  id: string;
  name: string;
  events: number;
  games: number;
  from: string | null;
  to: string | null;
  factions: Array<{ id: string; name: string; sides: number }>;
  participants: {
    min: number | null;
    max: number | null;
    unknownEvents: number;
    atLeast: Array<{ minParticipants: number; events: number; games: number }>;
  };
  formats: Counted[];
  tiers: Counted[];
  countries: Counted[];
  rulesVersions: Counted[];
  online: Array<Counted<boolean>>;
}

export interface FiltersAnswer {
  data: { systems: SystemOptions[] };
  meta: { dataVersion: number; loadedAt: string; demo: boolean; warnings: string[] };
}

export interface Interval {
  low: number;
  high: number;
}

export interface FactionRef {
  id: string;
  name: string;
}
