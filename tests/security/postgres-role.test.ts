import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresAnswers, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { rest } from '../helpers/http';
import { spawnServer, type ServerProcess } from '../helpers/process';
import { pgAdminUrl } from '../helpers/server';

/**
 * A superuser or a BYPASSRLS role skips row-level security, so every user would see every user's rows: the server
 * refuses to start as one (before its migrations create anything), saying how to create the right role, unless
 * ALLOW_RLS_BYPASS=true, which it then warns about at every start and /api/health reports as degraded.
 */
const available = await postgresAnswers(pgAdminUrl);
if (!available) console.warn('PostgreSQL role tests skipped: no PostgreSQL server at PG_ADMIN_URL');

const BYPASS_ROLE = 'budget_tracker_bypass';
let scratch: ScratchDatabase;
let server: ServerProcess | undefined;

async function admin<T>(database: string | null, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(pgAdminUrl);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The scratch database, connected to as `role`. */
function urlAs(role: string): string {
  const url = new URL(pgAdminUrl);
  url.username = role;
  url.password = '';
  url.pathname = `/${scratch.name}`;
  return url.toString();
}

async function tablesIn(): Promise<number> {
  return admin(scratch.name, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema = 'public'",
    );
    return Number(rows[0].n);
  });
}

describe.runIf(available)('PostgreSQL role that bypasses row-level security', () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase('bt_role', pgAdminUrl);
    await admin(null, async (client) => {
      try {
        await client.query(`create role ${BYPASS_ROLE} login nosuperuser bypassrls`);
      } catch (error) {
        if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
      }
      // Owning the database lets it create the tables, as an app role would.
      await client.query(`alter database ${scratch.name} owner to ${BYPASS_ROLE}`);
    });
  });
  afterAll(async () => {
    await scratch?.drop();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it.each([
    ['a superuser', () => new URL(pgAdminUrl).username || 'postgres'],
    ['a BYPASSRLS role', () => BYPASS_ROLE],
  ])('as %s: start-up is refused with the SQL that creates the right role, and nothing is created', async (_, role) => {
    server = spawnServer({ DATABASE_URL: urlAs(role()) });
    const { code, stdout, stderr } = await server.exited;
    expect(code).not.toBe(0);
    expect(stdout).not.toMatch(/Server listening/);
    expect(stderr).toContain(`"${role()}" is a superuser or has BYPASSRLS`);
    expect(stderr).toMatch(/create role \w+ login nosuperuser nobypassrls/);
    expect(stderr).toMatch(/create database \w+ owner/);
    expect(stderr).toContain('ALLOW_RLS_BYPASS=true');
    expect(await tablesIn()).toBe(0);
  });

  it('starts with ALLOW_RLS_BYPASS=true, warns at every start and reports degraded from /api/health', async () => {
    for (const start of [1, 2]) {
      server = spawnServer({ DATABASE_URL: urlAs(BYPASS_ROLE), ALLOW_RLS_BYPASS: 'true' });
      const url = await server.url;
      const health = await rest(url, 'GET', '/api/health');
      expect(health.status, `start ${start}`).toBe(200);
      expect(health.body).toEqual({
        status: 'degraded',
        reason: expect.stringMatching(/row-level security is bypassed/i),
      });
      await server.stop();
      const { stdout } = await server.exited;
      const warning = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((entry) => /Row-level security is bypassed/.test(entry.msg));
      expect(warning?.level, `start ${start}`).toBe(40);
    }
  });
});
