/** Every route of the service (docs/http-api.md#routes), registered in one place. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerApiCatalogRoute } from './api-catalog.ts';
import { registerArmyMatchupRoute } from './army-matchup.ts';
import { registerCanonicalSchemaRoute } from './canonical-schema.ts';
import { registerEventsRoute } from './events.ts';
import { registerFactionStatsRoute } from './faction-stats.ts';
import { registerItemUseStatsRoute } from './item-use-stats.ts';
import { registerScenarioRoute } from './scenario.ts';
import { registerScenarioStatsRoute } from './scenario-stats.ts';
import { registerDocsRoutes } from './docs.ts';
import { registerHealthRoute } from './health.ts';
import { registerMethodsDocsRoutes } from './methods-docs.ts';
import { registerOpenApiRoute } from './openapi.ts';
import { registerProblemPagesRoutes } from './problem-pages.ts';
import { registerRankingsRoute } from './rankings.ts';
import { registerUpcomingSatellitesRoute } from './upcoming-satellites.ts';
import { registerUpcomingSatellitesIcsRoute } from './upcoming-satellites-ics.ts';
import { registerFiltersRoute } from './filters.ts';
import { registerWebClientRoutes } from './web-client.ts';

export function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerHealthRoute(app, ctx);
  registerOpenApiRoute(app, ctx);
  registerApiCatalogRoute(app, ctx);
  registerDocsRoutes(app, ctx);
  registerMethodsDocsRoutes(app);
  registerProblemPagesRoutes(app);
  registerCanonicalSchemaRoute(app);
  registerFactionStatsRoute(app, ctx);
  registerArmyMatchupRoute(app, ctx);
  registerItemUseStatsRoute(app, ctx);
  registerScenarioRoute(app, ctx);
  registerScenarioStatsRoute(app, ctx);
  registerRankingsRoute(app, ctx);
  registerEventsRoute(app, ctx);
  registerUpcomingSatellitesRoute(app, ctx);
  registerUpcomingSatellitesIcsRoute(app, ctx);
  registerFiltersRoute(app, ctx);
  registerWebClientRoutes(app);
}
