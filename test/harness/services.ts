// The external services the tests use: PostgreSQL and Redis on this machine (or wherever
// TEST_DATABASE_URL and REDIS_URL point). Locally a missing service skips its tests with a
// reason; under CI (CI=true) it fails them, so a green CI run always covered both stores.
import net from 'node:net';

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(5000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Whether the service accepts a connection, tried three times: on a loaded machine a process
 * busy loading its modules can see its timer before the connection it was waiting for.
 */
async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await connects(hostname || '127.0.0.1', Number(port || defaultPort))) return true;
  }
  return false;
}

const pgUp = await reachable(PG_URL, 5432);
const redisUp = await reachable(REDIS_URL, 6379);

/** `false` to run, or the reason to skip. Throws under CI when the service is missing. */
function availability(name: string, up: boolean, url: string): false | string {
  if (up) return false;
  const { hostname, port } = new URL(url);
  const reason = `${name} is not reachable at ${hostname}:${port}`;
  if (IN_CI) throw new Error(`${reason}, and CI must run the ${name} tests`);
  return reason;
}

export const skipPostgres = availability('PostgreSQL', pgUp, PG_URL);
export const skipRedis = availability('Redis', redisUp, REDIS_URL);
