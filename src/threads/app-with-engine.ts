/**
 * An app over an engine thread of its own (docs/architecture.md#threads): what an app built
 * alone needs (tests, benchmarks, the API types' script), where `muster serve` gives the app the
 * engine of its serving mode (serving-modes.ts). The HTTP edge is given its engine and never
 * starts a thread; this is the one place that makes one for it.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.ts';
import { buildApp } from '../http/app.ts';
import type { BuildAppOptions } from '../http/app.ts';
import { EnginePool } from './engine-pool.ts';

/**
 * buildApp over one engine thread (EnginePool's defaults), started on first use and closed when
 * the app closes (docs/architecture.md#threads).
 */
export async function buildAppWithEngine(
  ctx: Omit<AppContext, 'engineThread'>,
  options?: BuildAppOptions,
): Promise<FastifyInstance> {
  const engineThread = new EnginePool();
  try {
    const app = await buildApp({ ...ctx, engineThread }, options);
    app.addHook('onClose', () => engineThread.close());
    return app;
  } catch (error) {
    await engineThread.close();
    throw error;
  }
}
