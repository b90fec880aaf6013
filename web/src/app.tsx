/** The frame every page shares: navigation, the demo notice, the filter bar, the page. */
import { get } from './api.ts';
import { FileStem } from './components/download.tsx';
import { fileStem } from './csv.ts';
import { FilterBar } from './components/filter-bar.tsx';
import type { FilterControl } from './common-filter.ts';
import { EVERY_CONTROL, FILTER_PARAMS } from './common-filter.ts';
import { ErrorBox, Loading } from './components/status.tsx';
import { MENU_VIEWS, PAGE_TITLES } from './menu.ts';
import { useApi } from './use-api.ts';
import type { Params, View } from './url-state.ts';
import { commonFilter, hrefWith, navigate, useUrlParams, viewOf } from './url-state.ts';
import { AboutPage } from './pages/about.tsx';
import { AlikePage } from './pages/alike.tsx';
import { ComparePage } from './pages/compare.tsx';
import { EventPage } from './pages/event.tsx';
import { EventsPage } from './pages/events.tsx';
import { ListsPage } from './pages/lists.tsx';
import { MatchupsPage } from './pages/matchups.tsx';
import { FactionPage } from './pages/faction.tsx';
import { MetaPage } from './pages/meta.tsx';
import { PlayerPage } from './pages/player.tsx';
import { RankingsPage } from './pages/rankings.tsx';
import { SatellitesPage } from './pages/satellites.tsx';
import { ScenariosPage } from './pages/scenarios.tsx';
import { StrengthPage } from './pages/strength.tsx';
import { ForecastPage } from './pages/forecast.tsx';
import { TeamPairingPage } from './pages/team-pairing.tsx';
import type { PageProps } from './pages/page-props.ts';

const PAGES: Record<View, (props: PageProps) => preact.JSX.Element> = {
  meta: MetaPage,
  matchups: MatchupsPage,
  lists: ListsPage,
  scenarios: ScenariosPage,
  rankings: RankingsPage,
  events: EventsPage,
  satellites: SatellitesPage,
  strength: StrengthPage,
  forecast: ForecastPage,
  pairing: TeamPairingPage,
  compare: ComparePage,
  alike: AlikePage,
  about: AboutPage,
  player: PlayerPage,
  faction: FactionPage,
  event: EventPage,
};

/** The filters each page applies: the bar shows only these (docs/operations.md#web-client). */
const FILTERS_OF: Record<View, ReadonlySet<FilterControl>> = {
  meta: new Set(EVERY_CONTROL),
  matchups: new Set(EVERY_CONTROL),
  lists: new Set(EVERY_CONTROL),
  scenarios: new Set(EVERY_CONTROL),
  rankings: new Set(EVERY_CONTROL),
  events: new Set(EVERY_CONTROL),
  // Upcoming events: their own dates, into the future; sizes, formats and tiers do not apply.
  satellites: new Set<FilterControl>(['system', 'futureDates', 'countries']),
  strength: new Set(EVERY_CONTROL),
  forecast: new Set(EVERY_CONTROL),
  // The matrix is fitted to all of the system's games, whatever the filter.
  pairing: new Set<FilterControl>(['system']),
  // The two windows set the dates and rules versions (web/src/compare-windows.ts).
  compare: new Set<FilterControl>(['system', 'size', 'format', 'online', 'tiers', 'countries']),
  // Pairs are sought among all of the system's players, whatever the filter.
  alike: new Set<FilterControl>(['system']),
  about: new Set<FilterControl>(['system']),
  player: new Set(EVERY_CONTROL),
  faction: new Set(EVERY_CONTROL),
  // An event's page is the event's own: only its system applies (docs/http-api.md#events).
  event: new Set<FilterControl>(['system']),
};

/** Page-specific keys dropped when moving to another page, so its state does not leak. */
const SHARED = new Set(['view', ...FILTER_PARAMS]);

/** The player, faction or event a page is about, named in its files (muster-event-t9a-ID-…). */
function entityOf(view: View, params: Params): string[] {
  const id = view === 'player' || view === 'faction' || view === 'event' ? params[view] : '';
  return id ? [id] : [];
}

export function App() {
  const [params, update] = useUrlParams();
  const view = viewOf(params);
  const filters = useApi('filters', (signal) => get('/api/filters', signal));
  const systems = filters.state === 'done' ? filters.data.data.systems : [];
  const system = systems.find((s) => s.id === params.system) ?? systems[0];
  const Page = PAGES[view];
  const filter = { ...commonFilter(params), ...(system ? { system: system.id } : {}) };
  document.title = `${PAGE_TITLES[view]} · Muster`;

  const navHref = (target: View) => {
    const kept: Record<string, string | undefined> = {};
    for (const key of Object.keys(params)) if (!SHARED.has(key)) kept[key] = '';
    return hrefWith(params, { ...kept, view: target === 'meta' ? '' : target });
  };

  return (
    <>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <div class="brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Muster</span>
          {system && <span class="system-name">{system.name}</span>}
        </div>
        <nav aria-label="Pages">
          <ul>
            {MENU_VIEWS.map((v) => (
              <li key={v}>
                <a
                  href={navHref(v)}
                  aria-current={v === view ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(navHref(v));
                  }}
                >
                  {PAGE_TITLES[v]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {/* The label follows the data shown: the chosen system's results, not the store. */}
      {system?.demo && (
        <p class="demo" role="note">
          <strong>Demo data.</strong> These numbers come from generated tournaments, not real
          results.
        </p>
      )}
      {system !== undefined && system.players.total > 0 && system.players.named === 0 && (
        <p class="anonymous-note" role="note" data-testid="anonymous-note">
          <strong>No player names.</strong> This data gives players as anonymous ids; each is shown
          by the shortest start of its id no other player shares (the whole id in its tooltip, link
          and downloads).
        </p>
      )}
      {filters.state === 'done' && (
        <FilterBar
          systems={systems}
          system={system}
          params={params}
          update={update}
          keys={FILTERS_OF[view]}
        />
      )}
      <main id="main" tabIndex={-1}>
        {MENU_VIEWS.includes(view) && <h1>{PAGE_TITLES[view]}</h1>}
        {filters.state === 'error' && <ErrorBox error={filters.error} />}
        {filters.state === 'loading' && <Loading what="the data's filters" />}
        {filters.state === 'done' &&
          (system === undefined && view !== 'about' ? (
            <p class="status empty">
              The store holds no games yet. Import data with `npx muster import`.
            </p>
          ) : (
            <FileStem.Provider value={fileStem(view, filter, entityOf(view, params))}>
              <Page
                params={params}
                update={update}
                system={system}
                filter={filter}
                filters={filters.data}
              />
            </FileStem.Provider>
          ))}
      </main>
      <footer>
        Muster · <a href="/docs/statistics">Methods</a> · <a href="/docs">API reference</a> ·{' '}
        <a href="/.well-known/openapi.json">OpenAPI</a>
      </footer>
    </>
  );
}
