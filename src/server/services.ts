import type { Orm as MikroORM } from './db/database';
import type { AppConfig } from './config/config';
import type { Clock } from './common/clock';
import { AuthThrottle, SqlFailureStore } from './modules/auth/auth-throttle';
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

export function createServices(config: AppConfig, signer: TokenSigner, orm: MikroORM, clock: Clock): AppServices {
  return {
    clock,
    retention: config.retention,
    auth: new AuthService({
      allowRegistration: config.allowRegistration,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      passwordHashCost: config.passwordHashCost,
      throttle: new AuthThrottle(new SqlFailureStore(orm), {
        perUser: config.loginMaxFailures,
        perAddress: config.loginAddressMaxFailures,
        windowSeconds: config.loginWindowSeconds,
      }),
      signIns: new SignIns(orm),
      signAccessToken: (claims) => signer.sign(claims),
      verifyAccessToken: (token) => signer.verify(token),
    }),
  };
}
