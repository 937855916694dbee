import { trpcClient } from '../helpers/trpc-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * An ended sign-in's access tokens stop working at once (not after their
 * 15 minutes): after logout, after a refresh token is replayed, after a password change.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function status(token: string): Promise<[number, number]> {
  const restAnswer = await rest(server.url, 'GET', '/api/auth/me', { token });
  const trpcAnswer = await trpcClient(server.url, token).categories.list.query();
  return [restAnswer.status, trpcAnswer.status];
}

function signIn(username: string, password: string) {
  return rest(server.url, 'POST', '/api/auth/login', { body: { username, password } }).then((r) => r.body);
}

describe('ended sign-ins', () => {
  it('logout ends that sign-in’s access tokens, and only that sign-in’s', async () => {
    const user = await registerUser(server.url);
    const other = await signIn(user.user.username, user.password);
    expect(await status(user.accessToken)).toEqual([200, 200]);
    expect((await rest(server.url, 'POST', '/api/auth/logout', { token: user.refreshToken })).status).toBe(204);
    expect(await status(user.accessToken)).toEqual([401, 401]);
    expect(await status(other.accessToken)).toEqual([200, 200]);
  });

  it('tokens renewed before the logout end too', async () => {
    const user = await registerUser(server.url);
    const renewed = (await rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).body;
    await rest(server.url, 'POST', '/api/auth/logout', { token: renewed.refreshToken });
    expect(await status(user.accessToken)).toEqual([401, 401]);
    expect(await status(renewed.accessToken)).toEqual([401, 401]);
  });

  it('a replayed refresh token ends the sign-in, access tokens included', async () => {
    const user = await registerUser(server.url);
    const renewed = (await rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).body;
    expect(await status(renewed.accessToken)).toEqual([200, 200]);
    expect((await rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).status).toBe(401);
    expect(await status(renewed.accessToken)).toEqual([401, 401]);
    expect(await status(user.accessToken)).toEqual([401, 401]);
  });

  it('a password change ends every other sign-in at once and keeps the one that changed it', async () => {
    const user = await registerUser(server.url);
    const other = await signIn(user.user.username, user.password);
    const res = await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { password: 'a-new-password', currentPassword: user.password },
    });
    expect(res.status).toBe(200);
    expect(await status(other.accessToken)).toEqual([401, 401]);
    expect(await status(user.accessToken)).toEqual([200, 200]);
  });

  it('of parallel refreshes with one token exactly one succeeds; the rest are replays that end the sign-in', async () => {
    const user = await registerUser(server.url);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(7);
    const winner = answers.find((a) => a.status === 200)!.body;
    expect(await status(winner.accessToken)).toEqual([401, 401]);
    expect((await rest(server.url, 'POST', '/api/auth/refresh', { token: winner.refreshToken })).status).toBe(401);
  });

  it('logout over tRPC ends the sign-in too', async () => {
    const user = await registerUser(server.url);
    const out = await trpcClient(server.url).auth.logout.mutate({ refreshToken: user.refreshToken });
    expect(out.status).toBe(200);
    expect(await status(user.accessToken)).toEqual([401, 401]);
  });
});

describe('a live sign-in', () => {
  it('is who a request is: no user row is read per request (the sign-in row names its user, and goes with it)', async () => {
    const user = await registerUser(server.url);
    expect(await status(user.accessToken)).toEqual([200, 200]);
    const execute = vi.spyOn(server.app.orm.em.getConnection(), 'execute');
    try {
      expect((await rest(server.url, 'GET', '/api/categories', { token: user.accessToken })).status).toBe(200);
      expect((await trpcClient(server.url, user.accessToken).categories.list.query()).status).toBe(200);
      const userReads = execute.mock.calls.filter(([sql]) => typeof sql === 'string' && /from [`"]user[`"]/.test(sql));
      expect(userReads).toEqual([]);
      expect(execute).toHaveBeenCalled();
    } finally {
      execute.mockRestore();
    }
  });
});
