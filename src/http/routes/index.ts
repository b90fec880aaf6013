/** Every route of the service (DESIGN.md §1), registered in one place. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerHealthRoute } from './health.ts';

export function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerHealthRoute(app, ctx);
}
