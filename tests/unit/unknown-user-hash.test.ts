import type { EntityManager } from '@mikro-orm/knex';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthThrottle } from '../../src/server/modules/auth/auth-throttle';
import { AuthService, INVALID_CREDENTIALS } from '../../src/server/modules/auth/auth.service';
import { verifyPassword } from '../../src/server/modules/auth/crypto';
import type { SignIns } from '../../src/server/modules/auth/sign-ins';

// The real verifyPassword, watched: the test reads which stored hash it was given. Handed to the service rather than
// mocked into the module, which a worker that imported the module for an earlier file (isolate: false) would not see.
const verifying = vi.fn(verifyPassword);

/** Nobody exists, and every attempt is allowed. */
const em = { findOne: async () => null } as unknown as EntityManager;
const throttle = {
  passwordScopes: () => [],
  begin: async () => ({ failed: () => undefined, succeeded: async () => undefined }),
} as unknown as AuthThrottle;

function service(passwordHashCost?: number): AuthService {
  return new AuthService({
    allowRegistration: true,
    refreshTokenTtlSeconds: 3600,
    passwordHashCost,
    throttle,
    signIns: {} as unknown as SignIns,
    signAccessToken: () => 'token',
    signMfaToken: () => 'mfa-token',
    verifyAccessToken: () => ({ sub: '1', username: 'x' }),
    verifyPassword: verifying,
  });
}

beforeEach(() => {
  verifying.mockClear();
});

describe('signing in as a username that does not exist', () => {
  it.each([
    [10, 1024],
    [12, 4096],
    [undefined, 16384],
  ])(
    'at PASSWORD_HASH_COST %s still runs scrypt, against a hash with N = %i (as a wrong password would)',
    async (cost, N) => {
      await expect(
        service(cost).login(em, { username: 'nobody', password: 'some password' }, '127.0.0.1'),
      ).rejects.toThrow(INVALID_CREDENTIALS);
      expect(verifying).toHaveBeenCalledTimes(1);
      const [password, stored] = verifying.mock.calls[0];
      expect(password).toBe('some password');
      expect(stored).toMatch(new RegExp(`^scrypt\\$${N}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{86}$`));
    },
  );
});
