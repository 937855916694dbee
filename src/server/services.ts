import type { Orm as MikroORM } from './db/database';
import type { AppConfig } from './config/config';
import type { Clock } from './common/clock';
import { AuthThrottle, REGISTRATION_WINDOW_SECONDS, SqlFailureStore } from './modules/auth/auth-throttle';
import { AuthService, type AccessTokenClaims, type VerifiedClaims } from './modules/auth/auth.service';
import { SignIns } from './modules/auth/sign-ins';
import type { Retention } from './modules/history/retention';

/**
 * The service layer both front doors call. Services that need configuration or
 * signing keys live here; the rest are plain functions taking (em, userId, input).
 */
export interface AppServices {
  auth: AuthService;
  /** Today for the schedules (a fixed date under CLOCK_TODAY or in tests). */
  clock: Clock;
  /** How long the history and the trash keep what they hold. */
  retention: Retention;
}

export interface TokenSigner {
  sign: (claims: AccessTokenClaims) => string;
  verify: (token: string) => VerifiedClaims;
}

/** Test seams: the password functions (tests count which run); crypto's otherwise. */
export interface PasswordFunctions {
  hash?: (password: string, N: number) => Promise<string>;
  verify?: (password: string, stored: string) => Promise<boolean>;
}

export function createServices(
  config: AppConfig,
  signer: TokenSigner,
  orm: MikroORM,
  clock: Clock,
  passwords: PasswordFunctions = {},
): AppServices {
  return {
    clock,
    retention: config.retention,
    auth: new AuthService({
      allowRegistration: config.allowRegistration,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      passwordHashCost: config.passwordHashCost,
      throttle: new AuthThrottle(
        new SqlFailureStore(orm, Math.max(config.loginWindowSeconds, REGISTRATION_WINDOW_SECONDS) * 1000),
        {
          perUser: config.loginMaxFailures,
          perAddress: config.loginAddressMaxFailures,
          windowSeconds: config.loginWindowSeconds,
          registrationsPerAddress: config.registrationsPerAddress,
        },
      ),
      signIns: new SignIns(orm),
      signAccessToken: (claims) => signer.sign(claims),
      verifyAccessToken: (token) => signer.verify(token),
      ...(passwords.hash ? { hashPassword: passwords.hash } : {}),
      ...(passwords.verify ? { verifyPassword: passwords.verify } : {}),
    }),
  };
}
