/** Every route of the service (docs/http-api.md#routes), registered in one place. */
import { registerLiveRoute } from './live.ts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerApiCatalogRoute } from './api-catalog.ts';
import { armyMatchupRoute } from './army-matchup.ts';
import { registerCanonicalSchemaRoute } from './canonical-schema.ts';
import { eventsRoute } from './events.ts';
import { eventProjectionRoute } from './event-projection.ts';
import { factionStatsRoute } from './faction-stats.ts';
import { factionStrengthRoute } from './faction-strength.ts';
import { forecastRoute } from './forecast.ts';
import { forecastAccuracyRoute } from './forecast-accuracy.ts';
import { forecastAccuracyCsvDownload } from './forecast-accuracy-csv.ts';
import { itemUseStatsRoute } from './item-use-stats.ts';
import { playerDuplicatesRoute } from './player-duplicates.ts';
import { scenarioRoute } from './scenario.ts';
import { scenarioStatsRoute } from './scenario-stats.ts';
import { teamMatrixRoute } from './team-matrix.ts';
import { teamPairingRoute } from './team-pairing.ts';
import { registerDocsRoutes } from './docs.ts';
import { registerHealthRoute } from './health.ts';
import { registerMethodsDocsRoutes } from './methods-docs.ts';
import { registerOpenApiRoute } from './openapi.ts';
import { registerProblemPagesRoutes } from './problem-pages.ts';
import { rankingsRoute } from './rankings.ts';
import { registerUpcomingSatellitesRoute } from './upcoming-satellites.ts';
import { registerUpcomingSatellitesIcsRoute } from './upcoming-satellites-ics.ts';
import { registerFiltersRoute } from './filters.ts';
import { registerWebClientRoutes } from './web-client.ts';
import { registerStatsRoute } from './stats-route.ts';
import type { StatsRoute } from './stats-route.ts';
import { registerStatsDownload } from './stats-download.ts';
import type { StatsDownload } from './stats-download.ts';

/**
 * Every statistics route (docs/architecture.md#adding-a-statistics-route), in the order the
 * OpenAPI document lists them; each answers with one statistic of src/engine/statistics.ts.
 */
export const STATS_ROUTES: readonly StatsRoute[] = [
  factionStatsRoute,
  armyMatchupRoute,
  itemUseStatsRoute,
  scenarioRoute,
  scenarioStatsRoute,
  rankingsRoute,
  eventsRoute,
  factionStrengthRoute,
  forecastRoute,
  forecastAccuracyRoute,
  teamMatrixRoute,
  teamPairingRoute,
  playerDuplicatesRoute,
  eventProjectionRoute,
];

/**
 * The statistics answered as a download (a GET with the common filter as its query, answering
 * text), each with one statistic of src/engine/statistics.ts (docs/http-api.md#downloads).
 */
export const STATS_DOWNLOADS: readonly StatsDownload[] = [forecastAccuracyCsvDownload];

export function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerHealthRoute(app, ctx);
  registerOpenApiRoute(app, ctx);
  registerApiCatalogRoute(app, ctx);
  registerDocsRoutes(app, ctx);
  registerMethodsDocsRoutes(app);
  registerProblemPagesRoutes(app);
  registerCanonicalSchemaRoute(app);
  for (const route of STATS_ROUTES) registerStatsRoute(app, ctx, route);
  for (const download of STATS_DOWNLOADS) registerStatsDownload(app, ctx, download);
  registerUpcomingSatellitesRoute(app, ctx);
  registerUpcomingSatellitesIcsRoute(app, ctx);
  registerFiltersRoute(app, ctx);
  registerLiveRoute(app, ctx);
  registerWebClientRoutes(app);
}
