/**
 * The rating methods players can be ranked by (docs/ratings.md), described once: each method's
 * name, its title, the section of docs/ratings.md that defines it, its parameters with their
 * bounds and defaults, and whether it forecasts a pairing. The rankings route builds its schema
 * from this list, the dashboard its method choices, and the engine keeps one implementation per
 * method (src/engine/ratings/methods/), which a test holds to its description.
 */

/** A numeric parameter: its bounds, inclusive, and its default. */
export interface NumberParameter {
  readonly kind: 'number' | 'integer';
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
  /** What it is, without its bounds or default (the schema's description adds them). */
  readonly description: string;
}

/** A parameter taking one of a few named values. */
export interface ChoiceParameter {
  readonly kind: 'choice';
  readonly values: readonly string[];
  readonly default: string;
  readonly description: string;
}

export type MethodParameter = NumberParameter | ChoiceParameter;

export interface RatingMethodSpec {
  /** The `method` value of a rankings request, and the name of its parameter object. */
  readonly name: string;
  /** As the dashboard names it. */
  readonly title: string;
  /** The anchor of its section in docs/ratings.md (as GitHub and /docs/ratings make it). */
  readonly docs: string;
  /** What its parameter object is, for the schema. */
  readonly description: string;
  readonly parameters: Readonly<Record<string, MethodParameter>>;
  /** Whether it gives the expected score of a pairing (head to head, prediction quality). */
  readonly forecasts: boolean;
}

const GLICKO2 = {
  name: 'glicko2',
  title: 'Glicko-2',
  docs: 'glicko-2',
  description: 'Glicko-2 parameters (method glicko2)',
  forecasts: true,
  parameters: {
    initialRating: {
      kind: 'number',
      minimum: 0,
      maximum: 10_000,
      default: 1500,
      description: 'Starting rating',
    },
    initialRd: {
      kind: 'number',
      minimum: 1,
      maximum: 1000,
      default: 350,
      description: 'Starting rating deviation',
    },
    initialVolatility: {
      kind: 'number',
      minimum: 0.0001,
      maximum: 1,
      default: 0.06,
      description: 'Starting volatility',
    },
    tau: {
      kind: 'number',
      minimum: 0.05,
      maximum: 5,
      default: 0.5,
      description: 'System constant constraining volatility change (Glickman suggests 0.3 to 1.2)',
    },
    period: {
      kind: 'choice',
      values: ['event', 'week', 'month'],
      default: 'event',
      description:
        'Glicko-2 rating period: one per event, or calendar weeks / months, where a player without games in a period has their deviation grow',
    },
  },
} as const satisfies RatingMethodSpec;

const ELO = {
  name: 'elo',
  title: 'Elo',
  docs: 'elo',
  description: 'Elo parameters (method elo)',
  forecasts: true,
  parameters: {
    k: { kind: 'number', minimum: 1, maximum: 1000, default: 32, description: 'K-factor' },
    initial: {
      kind: 'number',
      minimum: 0,
      maximum: 10_000,
      default: 1500,
      description: 'Starting rating',
    },
  },
} as const satisfies RatingMethodSpec;

const POINTS = {
  name: 'points',
  title: 'Best-N points',
  docs: 'points',
  description:
    'Points parameters (method points): event maximum = base + min(participants, participantCap); place score = maximum × (participants + 1 − placement) / participants',
  forecasts: false,
  parameters: {
    bestN: {
      kind: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 4,
      description: "Events counted: the player's best N",
    },
    oneDayMaxRounds: {
      kind: 'integer',
      minimum: 1,
      maximum: 100,
      default: 3,
      description: 'Events of at most this many rounds are one-day events',
    },
    baseOneDay: {
      kind: 'number',
      minimum: 0,
      maximum: 10_000,
      default: 20,
      description: 'Base of a one-day event',
    },
    baseMultiDay: {
      kind: 'number',
      minimum: 0,
      maximum: 10_000,
      default: 30,
      description: 'Base of a multi-day event',
    },
    participantCap: {
      kind: 'integer',
      minimum: 0,
      maximum: 100_000,
      default: 100,
      description: 'Participants beyond this add nothing to the maximum',
    },
  },
} as const satisfies RatingMethodSpec;

/** Every rating method, the default (a request naming none) first. */
export const RATING_METHODS = [GLICKO2, ELO, POINTS] as const;

export type RankingMethod = (typeof RATING_METHODS)[number]['name'];

/** The method a request naming none is ranked by. */
export const DEFAULT_METHOD: RankingMethod = RATING_METHODS[0].name;

/** The description of method `name`. */
export function ratingMethodSpec(name: RankingMethod): RatingMethodSpec {
  return RATING_METHODS.find((m) => m.name === name) ?? RATING_METHODS[0];
}
