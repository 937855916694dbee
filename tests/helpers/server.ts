import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { Clock } from '../../src/server/common/clock';
import { loadConfig, type AppConfig } from '../../src/server/config/config';
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { numberPlaceholders } from '../../src/server/db/sql';
import { TEST_PASSWORD_HASH_COST, TEST_REGISTRATIONS_PER_ADDRESS } from './password-cost';
import type { PasswordFunctions } from '../../src/server/services';
import { NO_CLIENT } from './process';
import pg from 'pg';

/**
 * The database the integration tests run on: SQLite, or PostgreSQL when TEST_DATABASE=postgresql
 * (the `integration-pg` vitest project). On PostgreSQL every server gets a fresh database
 * (created through PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres) that is
 * dropped when it closes.
 */
export const testDatabase: 'sqlite' | 'postgresql' =
  process.env.TEST_DATABASE === 'postgresql' ? 'postgresql' : 'sqlite';
export const pgAdminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;

export interface TestServer {
  app: FastifyInstance;
  config: AppConfig;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  database: 'sqlite' | 'postgresql';
  /**
   * Runs SQL straight on the database, beside the app (`?` placeholders): the ORM's connection on
   * SQLite; on PostgreSQL a superuser connection, which row-level security does not filter.
   */
  sql: <T = any>(text: string, params?: readonly unknown[], method?: string) => Promise<T[]>;
  close: () => Promise<void>;
}

/**
 * Starts the real server on a fresh temporary SQLite file, listening on port 0.
 * `env` takes the same variables as production (e.g. ACCESS_TOKEN_TTL: '2'); `logStream`
 * receives the JSON log lines. It serves no client unless `env.CLIENT_DIR` names one (the e2e harness
 * passes dist/client): `npm test` builds dist/client while these servers already run. Passwords are hashed at
 * TEST_PASSWORD_HASH_COST (scrypt N = 1024, ~2 ms of CPU instead of ~35 at the default N = 16384) unless `env` sets
 * PASSWORD_HASH_COST (`''` for the production default). Every test registers from 127.0.0.1, so the hourly allowance of
 * registrations per address is lifted unless `env` sets REGISTRATIONS_PER_ADDRESS.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { logStream?: Writable; clock?: Clock; passwords?: PasswordFunctions } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-test-'));
  const onPostgres = testDatabase === 'postgresql' && !env.DATABASE_FILE && !env.DATABASE_URL;
  const scratch: ScratchDatabase | null = onPostgres ? await createScratchDatabase('bt_test', pgAdminUrl) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    CLIENT_DIR: NO_CLIENT,
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    REGISTRATIONS_PER_ADDRESS: TEST_REGISTRATIONS_PER_ADDRESS,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  // With a log stream the app's own logger (level, redaction, serializers) writes there; otherwise no logs.
  let app: FastifyInstance;
  try {
    app = await buildApp(config, {
      ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.passwords ? { passwords: options.passwords } : {}),
    });
  } catch (error) {
    await scratch?.drop();
    throw error;
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  let admin: pg.Client | null = null;
  const sql = async <T>(text: string, params: readonly unknown[] = []): Promise<T[]> => {
    if (!scratch && !config.databaseUrl)
      return app.orm.em
        .fork()
        .getConnection()
        .execute<T[]>(text, [...params], 'all');
    if (!admin) {
      const url = new URL(pgAdminUrl);
      url.pathname = `/${new URL(config.databaseUrl!).pathname.slice(1)}`;
      admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
    }
    return (await admin.query(numberPlaceholders(text), [...params])).rows as T[];
  };
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
  return {
    app,
    config,
    url: `http://127.0.0.1:${address.port}`,
    dataDir,
    database: config.databaseUrl ? 'postgresql' : 'sqlite',
    sql,
    async close() {
      // A response the test left unread (a fetch whose body it never consumed, still streaming)
      // would hold its keep-alive connection, and the close, for keepAliveTimeout (72 s): the
      // test is over, so its connections go with it.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await admin?.end();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
