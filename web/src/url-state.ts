/**
 * The view lives in the URL's query string (which page, the filter bar, each page's own
 * choices), so that a link or a reload restores it. Empty values are left out of the URL.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CommonFilter } from './common-filter.ts';
import { COMMON_FILTER, FILTER_PARAMS } from './common-filter.ts';

export type Params = Readonly<Record<string, string>>;

export const VIEWS = [
  'meta',
  'matchups',
  'lists',
  'scenarios',
  'rankings',
  'events',
  'satellites',
  'strength',
  'forecast',
  'pairing',
  'compare',
  'alike',
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
  for (const key of FILTER_PARAMS) if (params[key]) kept[key] = params[key];
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

/** The common filter of every statistics request, from the filter bar's params. */
export function commonFilter(params: Params): CommonFilter {
  const body: CommonFilter = {};
  for (const { field, param, parse } of COMMON_FILTER) {
    const value = parse(params[param] ?? '');
    if (value !== undefined) Object.assign(body, { [field]: value });
  }
  return body;
}
