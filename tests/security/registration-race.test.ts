import { afterEach, describe, expect, it } from 'vitest';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/** With ALLOW_REGISTRATION=false, concurrent first registrations create exactly one user. */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('closed registration', () => {
  it.each([5, 20])('%i concurrent registrations on an empty instance create exactly one user', async (count) => {
    server = await startServer({ ALLOW_REGISTRATION: 'false' });
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        rest(server!.url, 'POST', '/api/auth/register', {
          body: { username: `racer${i}`, password: 'racer-password' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(count - 1);
    const users = await server.app.orm.em.fork().getConnection().execute('select count(*) as n from user');
    expect(Number(users[0].n)).toBe(1);
    expect((await rest(server.url, 'GET', '/api/auth/status')).body).toEqual({
      hasUsers: true,
      registrationOpen: false,
    });
  });

  it('open registration still lets everyone in, concurrently', async () => {
    server = await startServer();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        rest(server!.url, 'POST', '/api/auth/register', { body: { username: `open${i}`, password: 'racer-password' } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });
});
