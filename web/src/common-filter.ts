/**
 * The common filter every statistics request accepts, declared once: each field of the body
 * (its shape from the generated contract), the URL parameter that holds it, the filter-bar
 * control that sets it, how it is read from the URL and its part of a download's file name.
 * The URL state, the frame, the filter bar and the file names derive theirs from this list, so
 * a new filter is one entry here.
 */
import type { RequestOf } from './api.ts';

type StatsRequest = RequestOf<'/api/faction-stats'>;

interface FilterField<F extends keyof StatsRequest, P extends string, C extends string> {
  readonly field: F;
  readonly param: P;
  readonly control: C;
  /** Reads the URL parameter; undefined leaves the field out of the body. */
  readonly parse: (text: string) => StatsRequest[F] | undefined;
  /** The field's part of a file name (csv.ts); undefined adds none. */
  readonly stem: (filter: Partial<StatsRequest>) => string | undefined;
}

/** One field of the filter, its parser checked against the field's type in the contract. */
const filterField = <
  const F extends keyof StatsRequest,
  const P extends string,
  const C extends string,
>(
  entry: FilterField<F, P, C>,
): FilterField<F, P, C> => entry;

const TIERS = ['standard', 'satellite', 'major'] as const satisfies NonNullable<
  StatsRequest['tiers']
>;
type Tier = (typeof TIERS)[number];

const list = (text: string): string[] => text.split(',').filter((v) => v !== '');
const nonEmpty = <T>(values: T[]): T[] | undefined => (values.length ? values : undefined);
const joined = (values: readonly string[] | undefined, prefix = '') =>
  values?.length ? `${prefix}${values.join('+')}` : undefined;

/** In the order the file names list them (csv.ts): the system, the window, then the rest. */
export const COMMON_FILTER = [
  filterField({
    field: 'system',
    param: 'system',
    control: 'system',
    parse: (text) => text || undefined,
    stem: (f) => f.system ?? 'all',
  }),
  filterField({
    field: 'from',
    param: 'from',
    control: 'dates',
    parse: (text) => text || undefined,
    // The two dates make one part, written by `from`.
    stem: (f) => (f.from || f.to ? `${f.from ?? 'start'}_${f.to ?? 'end'}` : undefined),
  }),
  filterField({
    field: 'to',
    param: 'to',
    control: 'dates',
    parse: (text) => text || undefined,
    stem: () => undefined,
  }),
  filterField({
    field: 'rulesVersions',
    param: 'rules',
    control: 'rules',
    parse: (text) => nonEmpty(list(text)),
    stem: (f) => joined(f.rulesVersions, 'rules'),
  }),
  filterField({
    field: 'minParticipants',
    param: 'size',
    control: 'size',
    parse: (text) => (Number(text) > 0 ? Number(text) : undefined),
    stem: (f) => (f.minParticipants ? `min${f.minParticipants}` : undefined),
  }),
  filterField({
    field: 'format',
    param: 'format',
    control: 'format',
    parse: (text) => (text === 'singles' || text === 'teams' ? text : undefined),
    stem: (f) => f.format || undefined,
  }),
  filterField({
    field: 'tiers',
    param: 'tiers',
    control: 'tiers',
    parse: (text) =>
      nonEmpty(list(text).filter((t): t is Tier => (TIERS as readonly string[]).includes(t))),
    stem: (f) => joined(f.tiers),
  }),
  filterField({
    field: 'countries',
    param: 'countries',
    control: 'countries',
    parse: (text) => nonEmpty(list(text)),
    stem: (f) => joined(f.countries),
  }),
  filterField({
    field: 'online',
    param: 'online',
    control: 'online',
    parse: (text) => (text === 'online' ? true : text === 'in-person' ? false : undefined),
    stem: (f) => (f.online === undefined ? undefined : f.online ? 'online' : 'in-person'),
  }),
] as const;

export type CommonFilterField = (typeof COMMON_FILTER)[number]['field'];

/** The common filter of a request body (the filter bar's part of it). */
export type CommonFilter = Pick<StatsRequest, CommonFilterField>;

/** The URL parameters of the common filter, kept when moving between pages. */
export const FILTER_PARAMS = COMMON_FILTER.map((f) => f.param);

/**
 * A control of the filter bar: one per field, the two dates in one, and Satellites' own dates
 * ("sfrom"/"sto", which reach into the future and are no part of the common filter).
 */
export type FilterControl = (typeof COMMON_FILTER)[number]['control'] | 'futureDates';

/** Every control of the common filter: what a page that applies them all shows. */
export const EVERY_CONTROL: readonly FilterControl[] = [
  ...new Set(COMMON_FILTER.map((f) => f.control)),
];
