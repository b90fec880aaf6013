/**
 * The common filter every statistics request accepts, declared once: each field of the body
 * (its shape from the generated contract), the URL parameter that holds it and the filter-bar
 * control that sets it. The URL state, the frame, the filter bar and the file names derive
 * theirs from this list, so a new filter is one line here and a parser, a control and a file
 * name part that the compiler then asks for.
 */
import type { RequestOf } from './api.ts';

type StatsRequest = RequestOf<'/api/faction-stats'>;

/** In the order the file names list them (csv.ts): the system, the window, then the rest. */
export const COMMON_FILTER = [
  { field: 'system', param: 'system', control: 'system' },
  { field: 'from', param: 'from', control: 'dates' },
  { field: 'to', param: 'to', control: 'dates' },
  { field: 'rulesVersions', param: 'rules', control: 'rules' },
  { field: 'minParticipants', param: 'size', control: 'size' },
  { field: 'format', param: 'format', control: 'format' },
  { field: 'tiers', param: 'tiers', control: 'tiers' },
  { field: 'countries', param: 'countries', control: 'countries' },
  { field: 'online', param: 'online', control: 'online' },
] as const satisfies ReadonlyArray<{ field: keyof StatsRequest; param: string; control: string }>;

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
