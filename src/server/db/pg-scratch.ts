import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Throw-away PostgreSQL databases for `npm run db:migration`, the tests and the benchmarks:
 * each gets a fresh database (owned by a role that is not a superuser, so row-level security
 * applies to it as to a production app role) and drops it afterwards.
 */
export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The role scratch databases belong to: may log in, owns its database, bypasses nothing. */
export const SCRATCH_ROLE = 'budget_tracker_app';

export interface ScratchDatabase {
  /** Connects as SCRATCH_ROLE (the owner) to the new database. */
  url: string;
  name: string;
  drop: () => Promise<void>;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** True when PostgreSQL answers on the admin URL. */
export async function postgresAnswers(adminUrl = DEFAULT_PG_ADMIN_URL): Promise<boolean> {
  try {
    await withAdmin(adminUrl, (client) => client.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

function withUser(url: string, user: string, database: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = '';
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function createScratchDatabase(
  prefix = 'bt_test',
  adminUrl = DEFAULT_PG_ADMIN_URL,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, async (client) => {
    try {
      await client.query(`create role ${SCRATCH_ROLE} login nosuperuser nobypassrls`);
    } catch (error) {
      // Already there (perhaps created this instant by a parallel test file).
      if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
    await client.query(`create database ${name} owner ${SCRATCH_ROLE} encoding 'UTF8' template template0`);
  });
  return {
    name,
    url: withUser(adminUrl, SCRATCH_ROLE, name),
    drop: () =>
      withAdmin(adminUrl, async (client) => {
        await client.query(`drop database if exists ${name} with (force)`);
      }),
  };
}
