import type { AppConfig } from './config/config';
import { AuthService, type AccessTokenClaims } from './modules/auth/auth.service';
import { LoginThrottle } from './modules/auth/login-throttle';

/**
 * The service layer both front doors call. Services that need configuration or
 * signing keys live here; the rest are plain functions taking (em, userId, input).
 */
export interface AppServices {
  auth: AuthService;
}

export interface TokenSigner {
  sign(claims: AccessTokenClaims): string;
  verify(token: string): AccessTokenClaims;
}

export function createServices(config: AppConfig, signer: TokenSigner): AppServices {
  return {
    auth: new AuthService({
      allowRegistration: config.allowRegistration,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      throttle: new LoginThrottle(config.loginMaxFailures, config.loginWindowSeconds),
      signAccessToken: (claims) => signer.sign(claims),
      verifyAccessToken: (token) => signer.verify(token),
    }),
  };
}
