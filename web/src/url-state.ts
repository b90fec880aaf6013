/**
 * The view lives in the URL's query string (which page, the filter bar, each page's own
 * choices), so that a link or a reload restores it. Empty values are left out of the URL.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CommonFilter } from './types.ts';

export type Params = Readonly<Record<string, string>>;

/** Keys of the shared filter bar; each page adds its own. */
export const FILTER_KEYS = [
  'system',
  'from',
  'to',
  'size',
  'format',
  'tiers',
  'countries',
  'rules',
  'online',
] as const;

export const VIEWS = [
  'meta',
  'matchups',
  'lists',
  'scenarios',
  'rankings',
  'satellites',
  'compare',
  'about',
  'player',
  'faction',
  'event',
] as const;
export type View = (typeof VIEWS)[number];

export function readParams(search = window.location.search): Params {
  return Object.fromEntries(new URLSearchParams(search));
}

export function viewOf(params: Params): View {
  return (VIEWS as readonly string[]).includes(params.view ?? '') ? (params.view as View) : 'meta';
}

/** The query string of params with a patch applied (empty string removes a key). */
export function hrefWith(params: Params, patch: Record<string, string | undefined>): string {
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...params, ...patch })) if (v) next.set(k, v);
  const text = next.toString();
  return text ? `?${text}` : window.location.pathname;
}

/** Moves to another view of the dashboard in the same tab, as a new history entry. */
export function navigate(href: string): void {
  window.history.pushState(null, '', href);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * The link to one page of a player, faction or event: the filter bar's params kept (so the page
 * shows the same scope), every other page's own choices dropped.
 */
export function entityHref(params: Params, view: string, id: string): string {
  const kept: Record<string, string> = {};
  for (const key of FILTER_KEYS) if (params[key]) kept[key] = params[key];
  return hrefWith({}, { ...kept, view, [view]: id });
}

/** A comma-separated list parameter. */
export function listParam(params: Params, key: string): string[] {
  return (params[key] ?? '').split(',').filter((v) => v !== '');
}

/** The URL's params and a setter that pushes (or replaces) a history entry. */
export function useUrlParams(): [
  Params,
  (patch: Record<string, string | undefined>, replace?: boolean) => void,
] {
  const [params, setParams] = useState<Params>(() => readParams());
  useEffect(() => {
    const onPop = () => setParams(readParams());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const update = (patch: Record<string, string | undefined>, replace = false) => {
    const current = readParams();
    const href = hrefWith(current, patch);
    if (replace) window.history.replaceState(null, '', href);
    else window.history.pushState(null, '', href);
    setParams(readParams());
  };
  return [params, update];
}

const TIERS = ['standard', 'satellite', 'major'] as const;
type Tier = (typeof TIERS)[number];

/** The common filter of every statistics request, from the filter bar's params. */
export function commonFilter(params: Params): CommonFilter {
  const body: CommonFilter = {};
  if (params.system) body.system = params.system;
  if (params.from) body.from = params.from;
  if (params.to) body.to = params.to;
  if (params.size && Number(params.size) > 0) body.minParticipants = Number(params.size);
  if (params.format === 'singles' || params.format === 'teams') body.format = params.format;
  const tiers = listParam(params, 'tiers');
  const known = tiers.filter((t): t is Tier => (TIERS as readonly string[]).includes(t));
  if (known.length) body.tiers = known;
  const countries = listParam(params, 'countries');
  if (countries.length) body.countries = countries;
  const rules = listParam(params, 'rules');
  if (rules.length) body.rulesVersions = rules;
  if (params.online === 'online') body.online = true;
  if (params.online === 'in-person') body.online = false;
  return body;
}
