/**
 * Writes web/src/generated/api-types.ts, the dashboard's API types, from the OpenAPI document
 * the service serves at /.well-known/openapi.json (docs/http-api.md#discovery). Run by `npm ci`
 * (prepare) and `npm run typecheck`, so a change to a route's schema breaks the client's type
 * check instead of drifting from a hand-written copy; test/http/client-api-types.test.ts fails
 * when the committed file is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { buildAppWithEngine } from '../src/threads/app-with-engine.ts';
import { openMigratedStore } from '../src/store/store.ts';
import { CLIENT_API_TYPES, clientApiTypes } from './client-api-types.ts';

/** The served OpenAPI document, from an app over an empty in-memory store. */
async function servedDocument(): Promise<string> {
  const store = await openMigratedStore('sqlite::memory:');
  const app = await buildAppWithEngine(
    { config: loadConfig({ MUSTER_LOG_LEVEL: 'silent' }), store },
    { logger: false },
  );
  try {
    await app.ready();
    const response = await app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`openapi.json: ${response.statusCode}`);
    return response.body;
  } finally {
    await app.close();
    await store.close();
  }
}

mkdirSync(dirname(CLIENT_API_TYPES), { recursive: true });
writeFileSync(CLIENT_API_TYPES, await clientApiTypes(await servedDocument()));
console.log(`wrote ${CLIENT_API_TYPES}`);
