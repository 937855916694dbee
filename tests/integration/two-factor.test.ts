import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/client/features/profile/profile-helpers';
import { registerUser, rest, type HttpResult } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { trpcClient } from '../helpers/trpc-client';

/**
 * Two-factor sign-in (TOTP, RFC 6238) and the list of sign-ins, over REST and tRPC on a real server: setting it up
 * with the current password, turning it on with a code, signing in with a code or a recovery code (each taken
 * once), failed codes counted like failed passwords, API tokens unaffected; listing, ending one and ending all
 * other sign-ins.
 */
let server: TestServer;
let url: string;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '3', LOGIN_WINDOW: '15m' });
  url = server.url;
});
afterAll(() => server.close());

/** The code an authenticator app shows `offsetSteps` periods from now. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

function login(username: string, password: string, userAgent = FIREFOX): Promise<HttpResult> {
  return rest(url, 'POST', '/api/auth/login', { body: { username, password }, headers: { 'user-agent': userAgent } });
}

async function withTwoFactor(): Promise<{
  enabledWith: string;
  username: string;
  password: string;
  token: string;
  secret: string;
  recovery: string[];
}> {
  const user = await registerUser(url);
  const setup = await rest(url, 'POST', '/api/auth/mfa/setup', {
    token: user.accessToken,
    body: { currentPassword: user.password },
  });
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const enabledWith = codeFor(secret);
  const enabled = await rest(url, 'POST', '/api/auth/mfa/enable', {
    token: user.accessToken,
    body: { code: enabledWith },
  });
  expect(enabled.status).toBe(200);
  return {
    enabledWith,
    username: user.user.username,
    password: user.password,
    token: user.accessToken,
    secret,
    recovery: enabled.body.recoveryCodes as string[],
  };
}

describe('turning two-factor sign-in on', () => {
  it('needs the current password, a code from the new secret, and answers ten recovery codes once', async () => {
    const user = await registerUser(url);
    const wrong = await rest(url, 'POST', '/api/auth/mfa/setup', {
      token: user.accessToken,
      body: { currentPassword: 'not the password' },
    });
    expect(wrong.status).toBe(403);
    const early = await rest(url, 'POST', '/api/auth/mfa/enable', {
      token: user.accessToken,
      body: { code: '123456' },
    });
    expect(early.status).toBe(409);

    const setup = await rest(url, 'POST', '/api/auth/mfa/setup', {
      token: user.accessToken,
      body: { currentPassword: user.password },
    });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const otpauth = new URL(setup.body.otpauthUrl as string);
    expect(otpauth.protocol).toBe('otpauth:');
    expect(otpauth.searchParams.get('secret')).toBe(setup.body.secret);
    expect(otpauth.searchParams.get('issuer')).toBe('Budget Tracker');

    const badCode = await rest(url, 'POST', '/api/auth/mfa/enable', {
      token: user.accessToken,
      body: { code: codeFor(setup.body.secret, 10) },
    });
    expect(badCode.status).toBe(400);
    expect(badCode.body.error).toMatch(/code/i);
    expect((await rest(url, 'GET', '/api/auth/me', { token: user.accessToken })).body.mfaEnabled).toBe(false);

    const enabled = await rest(url, 'POST', '/api/auth/mfa/enable', {
      token: user.accessToken,
      body: { code: codeFor(setup.body.secret) },
    });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const me = await rest(url, 'GET', '/api/auth/me', { token: user.accessToken });
    expect(me.body).toMatchObject({ mfaEnabled: true, recoveryCodesLeft: 10 });
    // Stored as hashes: no recovery code and not the shown form of any is in the database.
    const [row] = await server.sql<{ mfa_recovery_codes: string }>(
      'select mfa_recovery_codes from "user" where id = ?',
      [user.user.id],
    );
    for (const code of codes) expect(row.mfa_recovery_codes).not.toContain(code.replace('-', ''));
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('answers a challenge instead of tokens, and a current code completes it, once', async () => {
    const user = await withTwoFactor();
    const first = await login(user.username, user.password);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    // The challenge token is good for nothing else.
    expect((await rest(url, 'GET', '/api/auth/me', { token: first.body.mfaToken })).status).toBe(401);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: first.body.mfaToken })).status).toBe(401);

    // The code that turned it on was taken: the next step's code signs in.
    expect(
      (
        await rest(url, 'POST', '/api/auth/mfa', {
          body: { mfaToken: first.body.mfaToken, code: user.enabledWith },
        })
      ).status,
    ).toBe(401);
    const code = codeFor(user.secret, 1);
    const done = await rest(url, 'POST', '/api/auth/mfa', { body: { mfaToken: first.body.mfaToken, code } });
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ username: user.username, mfaEnabled: true });
    expect((await rest(url, 'GET', '/api/auth/me', { token: done.body.accessToken })).status).toBe(200);

    // The same code again, with a fresh challenge: refused.
    const second = await login(user.username, user.password);
    const replay = await rest(url, 'POST', '/api/auth/mfa', { body: { mfaToken: second.body.mfaToken, code } });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatch(/invalid or already used code/i);
  });

  it('takes each recovery code once, over tRPC too', async () => {
    const user = await withTwoFactor();
    const api = trpcClient(url);
    const challenge = await api.auth.login.mutate({ username: user.username, password: user.password });
    expect(challenge.data).toMatchObject({ mfaRequired: true });
    const mfaToken = challenge.data && 'mfaToken' in challenge.data ? challenge.data.mfaToken : '';
    const [recovery] = user.recovery;
    const done = await api.auth.verifyMfa.mutate({ mfaToken, code: recovery.toUpperCase() });
    expect(done.status).toBe(200);
    expect(done.data?.user.recoveryCodesLeft).toBe(9);
    const again = await api.auth.verifyMfa.mutate({ mfaToken, code: recovery });
    expect(again.status).toBe(401);
  });

  it('counts wrong codes like wrong passwords: over the limit even the right code waits', async () => {
    const user = await withTwoFactor();
    const challenge = await login(user.username, user.password);
    for (let i = 0; i < 3; i += 1) {
      const wrong = await rest(url, 'POST', '/api/auth/mfa', {
        body: { mfaToken: challenge.body.mfaToken, code: '000000' },
      });
      expect(wrong.status).toBe(401);
    }
    const blocked = await rest(url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: challenge.body.mfaToken, code: codeFor(user.secret, 1) },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('leaves API tokens working without a code', async () => {
    const user = await withTwoFactor();
    const apiToken = generateApiToken();
    const saved = await rest(url, 'PUT', '/api/auth/profile', {
      token: user.token,
      body: { apiToken, currentPassword: user.password },
    });
    expect(saved.status).toBe(200);
    expect((await rest(url, 'GET', '/api/accounts', { token: apiToken })).status).toBe(200);
  });

  it('turns off with the current password only, and sign-in answers tokens again', async () => {
    const user = await withTwoFactor();
    const wrong = await rest(url, 'DELETE', '/api/auth/mfa', {
      token: user.token,
      body: { currentPassword: 'nope-nope' },
    });
    expect(wrong.status).toBe(403);
    const off = await rest(url, 'DELETE', '/api/auth/mfa', {
      token: user.token,
      body: { currentPassword: user.password },
    });
    expect(off.status).toBe(204);
    const signedIn = await login(user.username, user.password);
    expect(signedIn.body.accessToken).toEqual(expect.any(String));
    expect(signedIn.body.user).toMatchObject({ mfaEnabled: false, recoveryCodesLeft: 0 });
  });
});

describe('the list of sign-ins', () => {
  it('shows each live sign-in with its device and address, and which one is asking', async () => {
    const user = await registerUser(url);
    const phone = await login(user.user.username, user.password, PHONE);
    const list = await rest(url, 'GET', '/api/auth/sign-ins', { token: phone.body.accessToken });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const current = list.body.find((entry: { current: boolean }) => entry.current);
    expect(current).toMatchObject({ device: 'Safari on iPhone', address: '127.0.0.1', userAgent: PHONE });
    expect(Date.parse(current.createdAt)).not.toBeNaN();
    expect(Date.parse(current.lastSeenAt)).not.toBeNaN();
    expect(list.body.filter((entry: { current: boolean }) => !entry.current)).toHaveLength(1);

    const viaTrpc = await trpcClient(url, phone.body.accessToken).auth.signIns.query();
    expect(viaTrpc.data?.map((entry) => entry.id).sort()).toEqual(list.body.map((e: { id: string }) => e.id).sort());
  });

  it('ends one sign-in at once; another user’s or an unknown one is a 404', async () => {
    const user = await registerUser(url);
    const other = await registerUser(url);
    const laptop = await login(user.user.username, user.password);
    const list = await rest(url, 'GET', '/api/auth/sign-ins', { token: laptop.body.accessToken });
    const first = list.body.find((entry: { current: boolean }) => !entry.current);

    const foreign = await rest(url, 'DELETE', `/api/auth/sign-ins/${first.id}`, { token: other.accessToken });
    expect(foreign.status).toBe(404);
    expect((await rest(url, 'GET', '/api/auth/me', { token: user.accessToken })).status).toBe(200);

    const ended = await rest(url, 'DELETE', `/api/auth/sign-ins/${first.id}`, { token: laptop.body.accessToken });
    expect(ended.status).toBe(204);
    expect((await rest(url, 'GET', '/api/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).status).toBe(401);
    const unknown = await rest(url, 'DELETE', '/api/auth/sign-ins/no-such-sign-in', { token: laptop.body.accessToken });
    expect(unknown.status).toBe(404);
    const left = await rest(url, 'GET', '/api/auth/sign-ins', { token: laptop.body.accessToken });
    expect(left.body.map((entry: { id: string }) => entry.id)).not.toContain(first.id);
  });

  it('signs out everywhere else, keeping the sign-in that asked', async () => {
    const user = await registerUser(url);
    const a = await login(user.user.username, user.password);
    const b = await login(user.user.username, user.password, PHONE);
    const res = await rest(url, 'POST', '/api/auth/sign-ins/revoke-others', { token: b.body.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const token of [user.accessToken, a.body.accessToken])
      expect((await rest(url, 'GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await rest(url, 'GET', '/api/auth/me', { token: b.body.accessToken })).status).toBe(200);
    const viaTrpc = await trpcClient(url, b.body.accessToken).auth.revokeOtherSignIns.mutate();
    expect(viaTrpc.data).toEqual({ revoked: 0 });
  });

  it('records each refresh as "last seen", with the device and address it came from', async () => {
    const user = await registerUser(url);
    const [before] = (await rest(url, 'GET', '/api/auth/sign-ins', { token: user.accessToken })).body;
    expect(before.lastSeenAt).toBe(before.createdAt);
    const refreshed = await rest(url, 'POST', '/api/auth/refresh', {
      token: user.refreshToken,
      headers: { 'user-agent': PHONE },
    });
    expect(refreshed.status).toBe(200);
    const [after] = (await rest(url, 'GET', '/api/auth/sign-ins', { token: refreshed.body.accessToken })).body;
    expect(after).toMatchObject({ id: before.id, device: 'Safari on iPhone', current: true });
    expect(after.lastSeenAt >= before.lastSeenAt).toBe(true);
  });
});
