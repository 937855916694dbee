import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { trpcClient } from '../helpers/trpc-client';

/**
 * The token a right password earns a two-factor user completes one sign-in, once: whoever copies it (a log, a
 * shoulder, a replayed request) cannot start a second sign-in with it and another code, and of two requests racing
 * with it exactly one signs in without spending the loser's recovery code.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '50' });
});
afterAll(() => server.close());

function codeFor(secret: string, offsetSteps: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function twoFactorUser() {
  const user = await registerUser(server.url);
  const setup = await rest(server.url, 'POST', '/api/auth/mfa/setup', {
    token: user.accessToken,
    body: { currentPassword: user.password },
  });
  const secret = setup.body.secret as string;
  const enabled = await rest(server.url, 'POST', '/api/auth/mfa/enable', {
    token: user.accessToken,
    body: { code: codeFor(secret, 0) },
  });
  expect(enabled.status).toBe(200);
  const challenge = await rest(server.url, 'POST', '/api/auth/login', {
    body: { username: user.user.username, password: user.password },
  });
  expect(challenge.body.mfaRequired).toBe(true);
  return {
    ...user,
    secret,
    recovery: enabled.body.recoveryCodes as string[],
    mfaToken: challenge.body.mfaToken as string,
  };
}

async function signInCount(accessToken: string): Promise<number> {
  const list = await rest(server.url, 'GET', '/api/auth/sign-ins', { token: accessToken });
  return (list.body as unknown[]).length;
}

describe('the two-factor challenge token', () => {
  it('signs in once: a second recovery code or a later code with the same token is refused (REST and tRPC)', async () => {
    const user = await twoFactorUser();
    const first = await rest(server.url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: user.mfaToken, code: user.recovery[0] },
    });
    expect(first.status).toBe(200);

    const again = await rest(server.url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: user.mfaToken, code: user.recovery[1] },
    });
    expect(again.status).toBe(401);
    expect(again.body.error).toMatch(/password again/i);
    const later = await trpcClient(server.url).auth.verifyMfa.mutate({
      mfaToken: user.mfaToken,
      code: codeFor(user.secret, 1),
    });
    expect(later.status).toBe(401);

    // Neither refusal spent the recovery code it carried, and no second sign-in was started.
    const me = await rest(server.url, 'GET', '/api/auth/me', { token: first.body.accessToken });
    expect(me.body.recoveryCodesLeft).toBe(9);
    expect(await signInCount(first.body.accessToken)).toBe(2);
  });

  it('stays usable after a wrong code, until it signs in', async () => {
    const user = await twoFactorUser();
    const wrong = await rest(server.url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: user.mfaToken, code: 'zzzzz-zzzzz' },
    });
    expect(wrong.status).toBe(401);
    const right = await rest(server.url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: user.mfaToken, code: user.recovery[3] },
    });
    expect(right.status).toBe(200);
  });

  it('is void once the password it proved has changed', async () => {
    const user = await twoFactorUser();
    const changed = await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { password: 'a whole new password', currentPassword: user.password },
    });
    expect(changed.status).toBe(200);
    const late = await rest(server.url, 'POST', '/api/auth/mfa', {
      body: { mfaToken: user.mfaToken, code: user.recovery[0] },
    });
    expect(late.status).toBe(401);
    expect(late.body.error).toMatch(/password again/i);
    const me = await rest(server.url, 'GET', '/api/auth/me', { token: user.accessToken });
    expect(me.body.recoveryCodesLeft).toBe(10);
  });

  it('of two requests racing with one token and two recovery codes, exactly one signs in and one code is spent', async () => {
    const user = await twoFactorUser();
    const answers = await Promise.all(
      [user.recovery[0], user.recovery[1]].map((code) =>
        rest(server.url, 'POST', '/api/auth/mfa', { body: { mfaToken: user.mfaToken, code } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const winner = answers.find((a) => a.status === 200)!;
    const me = await rest(server.url, 'GET', '/api/auth/me', { token: winner.body.accessToken });
    expect(me.body.recoveryCodesLeft).toBe(9);
  });
});
