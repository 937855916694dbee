import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/better-sqlite';
import { AppError } from '../../../shared/errors';
import type {
  AuthResult,
  AuthStatus,
  LoginInput,
  ProfileUpdate,
  RegisterInput,
  TokenPair,
  UserDto,
} from '../../../shared/schemas/auth';
import { User } from '../users/user.entity';
import { toUserDto } from '../users/user.dto';
import { DUMMY_PASSWORD_HASH, hashPassword, randomToken, sha256Hex, verifyPassword } from './crypto';
import type { LoginThrottle } from './login-throttle';
import { RefreshToken } from './refresh-token.entity';

/** The signed-in user as the rest of the server sees it. */
export interface AuthUser {
  id: number;
  username: string;
  /** How the request proved who it is. */
  via: 'session' | 'apiToken';
  /** The sign-in (refresh-token family) a session request belongs to. */
  family?: string;
}

export interface AccessTokenClaims {
  sub: string;
  typ: 'access';
  username: string;
  /** The sign-in the token was issued to (its refresh-token family). */
  fam?: string;
}

export interface AuthServiceDeps {
  allowRegistration: boolean;
  refreshTokenTtlSeconds: number;
  throttle: LoginThrottle;
  signAccessToken(claims: AccessTokenClaims): string;
  verifyAccessToken(token: string): AccessTokenClaims;
  now?: () => Date;
}

export const INVALID_CREDENTIALS = 'Invalid username or password';
const INVALID_REFRESH = 'Invalid or expired refresh token';

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async status(em: EntityManager): Promise<AuthStatus> {
    const hasUsers = (await em.count(User, {})) > 0;
    return { hasUsers, registrationOpen: this.deps.allowRegistration || !hasUsers };
  }

  async register(em: EntityManager, input: RegisterInput): Promise<AuthResult> {
    const { registrationOpen } = await this.status(em);
    if (!registrationOpen) throw new AppError('FORBIDDEN', 'Registration is closed on this server');
    const usernameKey = input.username.toLowerCase();
    if (await em.count(User, { usernameKey })) {
      throw new AppError('CONFLICT', 'That username is already taken');
    }
    const now = this.now().toISOString();
    const user = em.create(User, {
      username: input.username,
      usernameKey,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    return { ...(await this.issueTokens(em, user, randomUUID())), user: toUserDto(user) };
  }

  async login(em: EntityManager, input: LoginInput, clientIp: string): Promise<AuthResult> {
    const wait = this.deps.throttle.retryAfterSeconds(input.username, clientIp);
    if (wait > 0) {
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed login attempts. Try again in ${formatWait(wait)}.`, {
        retryAfterSeconds: wait,
      });
    }
    const user = await em.findOne(User, { usernameKey: input.username.trim().toLowerCase() });
    const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !ok) {
      this.deps.throttle.recordFailure(input.username, clientIp);
      throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
    }
    this.deps.throttle.recordSuccess(input.username, clientIp);
    return { ...(await this.issueTokens(em, user, randomUUID())), user: toUserDto(user) };
  }

  /** Single use: the presented token is spent and a new pair issued in the same family. */
  async refresh(em: EntityManager, refreshToken: string): Promise<AuthResult> {
    type Outcome = { result: AuthResult } | { replayedFamily: string } | null;
    const outcome = await em.transactional(async (tx): Promise<Outcome> => {
      const stored = await tx.findOne(RefreshToken, { tokenHash: sha256Hex(refreshToken) }, { populate: ['user'] });
      const now = this.now().toISOString();
      if (!stored || stored.revokedAt || stored.expiresAt <= now) return null;
      if (stored.usedAt) return { replayedFamily: stored.family };
      stored.usedAt = now;
      const pair = await this.issueTokens(tx, stored.user, stored.family);
      return { result: { ...pair, user: toUserDto(stored.user) } };
    });
    if (outcome && 'result' in outcome) return outcome.result;
    if (outcome) {
      // A spent token came back: someone holds a copy. End every session of that family.
      await em.nativeUpdate(RefreshToken, { family: outcome.replayedFamily, revokedAt: null }, { revokedAt: this.now().toISOString() });
    }
    throw new AppError('UNAUTHORIZED', INVALID_REFRESH);
  }

  /** Revokes the refresh token's whole family (this sign-in). Unknown tokens are ignored. */
  async logout(em: EntityManager, refreshToken: string): Promise<void> {
    const stored = await em.findOne(RefreshToken, { tokenHash: sha256Hex(refreshToken) });
    if (!stored) return;
    await em.nativeUpdate(RefreshToken, { family: stored.family, revokedAt: null }, { revokedAt: this.now().toISOString() });
  }

  /** Resolves a bearer credential: a signed access token or an API token. */
  async authenticate(em: EntityManager, bearer: string): Promise<AuthUser> {
    if (bearer.split('.').length === 3) {
      let claims: AccessTokenClaims;
      try {
        claims = this.deps.verifyAccessToken(bearer);
      } catch {
        throw new AppError('UNAUTHORIZED', 'Invalid or expired access token');
      }
      if (claims.typ !== 'access') throw new AppError('UNAUTHORIZED', 'Invalid or expired access token');
      const user = await em.findOne(User, { id: Number(claims.sub) });
      if (!user) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token');
      return { id: user.id, username: user.username, via: 'session', ...(claims.fam ? { family: claims.fam } : {}) };
    }
    const user = await em.findOne(User, { apiTokenHash: sha256Hex(bearer) });
    if (!user) throw new AppError('UNAUTHORIZED', 'Invalid API token');
    return { id: user.id, username: user.username, via: 'apiToken' };
  }

  async me(em: EntityManager, userId: number): Promise<UserDto> {
    return toUserDto(await em.findOneOrFail(User, { id: userId }));
  }

  /**
   * Changes the username, password and/or API token. A new password ends every other
   * sign-in: their refresh tokens are revoked (the sign-in making the change, `keepFamily`,
   * stays; over an API token, none does).
   */
  async updateProfile(em: EntityManager, userId: number, changes: ProfileUpdate, keepFamily?: string): Promise<UserDto> {
    const user = await em.findOneOrFail(User, { id: userId });
    const now = this.now().toISOString();
    let changed = false;
    if (changes.username !== undefined && changes.username !== user.username) {
      const usernameKey = changes.username.toLowerCase();
      if (usernameKey !== user.usernameKey && (await em.count(User, { usernameKey }))) {
        throw new AppError('CONFLICT', 'That username is already taken');
      }
      user.username = changes.username;
      user.usernameKey = usernameKey;
      changed = true;
    }
    let passwordChanged = false;
    if (changes.password !== undefined) {
      user.passwordHash = await hashPassword(changes.password);
      changed = passwordChanged = true;
    }
    if (changes.apiToken !== undefined) {
      if (changes.apiToken === null) {
        user.apiTokenHash = null;
        user.apiTokenCreatedAt = null;
      } else {
        const hash = sha256Hex(changes.apiToken);
        if (await em.count(User, { apiTokenHash: hash, id: { $ne: userId } })) {
          throw new AppError('CONFLICT', 'That API token cannot be used; generate a new one');
        }
        user.apiTokenHash = hash;
        user.apiTokenCreatedAt = now;
      }
      changed = true;
    }
    if (!changed) throw new AppError('BAD_REQUEST', 'No changes to save');
    user.updatedAt = now;
    await em.transactional(async (tx) => {
      tx.persist(user);
      if (passwordChanged) {
        await tx.nativeUpdate(
          RefreshToken,
          { user: userId, revokedAt: null, ...(keepFamily ? { family: { $ne: keepFamily } } : {}) },
          { revokedAt: now },
        );
      }
    });
    return toUserDto(user);
  }

  private async issueTokens(em: EntityManager, user: User, family: string): Promise<TokenPair> {
    const refreshToken = randomToken();
    const now = this.now();
    em.create(RefreshToken, {
      user,
      tokenHash: sha256Hex(refreshToken),
      family,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.deps.refreshTokenTtlSeconds * 1000).toISOString(),
    });
    await em.flush();
    const accessToken = this.deps.signAccessToken({ sub: String(user.id), typ: 'access', username: user.username, fam: family });
    return { accessToken, refreshToken };
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
