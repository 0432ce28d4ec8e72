// `npm run openapi`: the document the server serves, printed without starting a server (an
// in-memory store backs the app while it is built; no route is called).
import { randomBytes } from 'node:crypto';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import { openStore } from '../db/database.ts';
import { createLogger } from '../http/logging.ts';
import { systemClock } from '../lib/clock.ts';
import { createSealer } from '../lib/crypto.ts';
import { createPlatforms } from '../platforms/registry.ts';

export async function openApiDocument(): Promise<unknown> {
  const config = parseConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const store = openStore(config.database);
  const app = await buildApp({ config, store, clock: systemClock, sealer: createSealer(randomBytes(32)), sandbox: null, platforms: createPlatforms(config) }, { logger: createLogger('silent') });
  try {
    return app.swagger();
  } finally {
    await app.close();
    await store.close();
  }
}

export async function printOpenApi(): Promise<string> {
  return JSON.stringify(await openApiDocument(), null, 2);
}
