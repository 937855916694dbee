import { randomUUID } from 'node:crypto';
import { DEFAULT_CURRENCY } from '../../../shared/money/currencies';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import type {
  AuthResult,
  AuthStatus,
  LoginInput,
  LoginResult,
  MfaSetup,
  MfaVerifyInput,
  ProfileUpdate,
  RecoveryCodes,
  RegisterInput,
  SignInDto,
  TokenPair,
  UserDto,
} from '../../../shared/schemas/auth';
import { describeDevice } from '../../../shared/user-agent';
import { User } from '../users/user.entity';
import { toUserDto } from '../users/user.dto';
import type { AuthThrottle } from './auth-throttle';
import {
  DEFAULT_PASSWORD_HASH_COST,
  dummyPasswordHash,
  hashPassword,
  randomToken,
  sha256Hex,
  verifyPassword,
} from './crypto';
import { InstanceClaim } from './instance-claim.entity';
import { RefreshToken } from './refresh-token.entity';
import { SignIn } from './sign-in.entity';
import type { SignInOrigin, SignIns } from './sign-ins';
import {
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  parseRecoveryHashes,
  recoveryCodeHash,
  totpStep,
} from './two-factor';
import { nameKey } from '../../../shared/names';

/** The signed-in user as the rest of the server sees it. */
export interface AuthUser {
  id: number;
  /** How the request proved who it is. */
  via: 'session' | 'apiToken';
  /** The sign-in a session request belongs to (also its refresh-token family). */
  signInId?: string;
}

/** The claims of the token a right password earns a user with two-factor sign-in: good only for the code step. */
export interface MfaTokenClaims {
  sub: string;
  typ: 'mfa';
  username: string;
  /** The id the sign-in it completes will have: a sign-in row with it means the token was spent. */
  jti: string;
  /** Names the password it proved (a hash of its stored hash): a new password voids the token. */
  pwd: string;
}

export interface AccessTokenClaims {
  sub: string;
  typ: 'access';
  username: string;
  /** The sign-in the token was issued to; checked live on every request. */
  sid?: string;
  /** The same id under its earlier name, in tokens issued before `sid`. */
  fam?: string;
}

/**
 * The claims of a token whose signature checked out: any token this server signed, so its type is still to
 * be checked (`typ` must be 'access').
 */
export type VerifiedClaims = Omit<AccessTokenClaims, 'typ'> & { typ?: unknown; jti?: unknown; pwd?: unknown };

export interface AuthServiceDeps {
  allowRegistration: boolean;
  refreshTokenTtlSeconds: number;
  /** log2 of scrypt's N for new password hashes (PASSWORD_HASH_COST); 14 when absent. */
  passwordHashCost?: number;
  throttle: AuthThrottle;
  signIns: SignIns;
  signAccessToken: (claims: AccessTokenClaims) => string;
  /** Signs a short-lived (MFA_TOKEN_TTL_SECONDS) token for the code step of a sign-in. */
  signMfaToken: (claims: MfaTokenClaims) => string;
  /** Throws `{ code: 'FAST_JWT_EXPIRED' }`-like errors for expired tokens, others for forged ones. */
  verifyAccessToken: (token: string) => VerifiedClaims;
  now?: () => Date;
  /** Checks a password against a stored hash; crypto's verifyPassword unless given (tests watch which hash it gets). */
  verifyPassword?: typeof verifyPassword;
  /** Hashes a new password; crypto's hashPassword unless given (tests count the calls). */
  hashPassword?: (password: string, N: number) => Promise<string>;
}

/** Who is asking, for the limits on failed checks. */
export interface RequestOrigin {
  address: string;
  /** The sign-in making the request, if it is a browser session. */
  signInId?: string;
  userAgent?: string;
}

/** How long the code step of a two-factor sign-in may take. */
export const MFA_TOKEN_TTL_SECONDS = 300;
const INVALID_CODE = 'Invalid or already used code';
const INVALID_MFA_TOKEN = 'The sign-in has expired: enter your password again';

export const INVALID_CREDENTIALS = 'Invalid username or password';
const INVALID_REFRESH = 'Invalid or expired refresh token';
const INVALID_ACCESS = 'Invalid or expired access token';
const FIRST_USER_CLAIM = 'first-user';

/** An access token is three base64url parts joined by dots; anything else is an API token. */
export function looksLikeAccessToken(bearer: string): boolean {
  return bearer.split('.').length === 3;
}

function isExpiredTokenError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  return /EXPIRED/i.test(code);
}

export class AuthService {
  /** scrypt's N for new hashes, and for the hash an unknown username is checked against. */
  private readonly passwordHashN: number;
  /** Verified when the username does not exist: at the configured N, so a missing user takes as long as a wrong password. */
  private readonly dummyPasswordHash: string;

  constructor(private readonly deps: AuthServiceDeps) {
    this.passwordHashN = 2 ** (deps.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST);
    this.dummyPasswordHash = dummyPasswordHash(this.passwordHashN);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async status(em: EntityManager): Promise<AuthStatus> {
    const hasUsers = (await em.count(User, {})) > 0;
    return { hasUsers, registrationOpen: this.deps.allowRegistration || !hasUsers };
  }

  private hash(password: string): Promise<string> {
    return (this.deps.hashPassword ?? hashPassword)(password, this.passwordHashN);
  }

  /**
   * Creates a user. Each attempt counts against its address's hourly allowance, and a taken
   * name is refused before the password hash runs (the costly step). With registration closed
   * only the first account can be made: the check and the insert share one transaction, and
   * the first user takes a once-only claim (a primary key), so of concurrent attempts exactly
   * one succeeds.
   */
  async register(em: EntityManager, input: RegisterInput, address: string, userAgent?: string): Promise<AuthResult> {
    if (!(await this.status(em)).registrationOpen) throw closedRegistration();
    await this.deps.throttle.registration(address);
    const usernameKey = nameKey(input.username);
    if (await em.count(User, { usernameKey })) throw usernameTaken();
    const passwordHash = await this.hash(input.password);
    const now = this.now().toISOString();
    let user: User;
    try {
      user = await em.transactional(async (tx) => {
        if (!this.deps.allowRegistration) {
          if ((await tx.count(User, {})) > 0) throw closedRegistration();
          tx.create(InstanceClaim, { name: FIRST_USER_CLAIM, claimedAt: now });
          await tx.flush();
        }
        if (await tx.count(User, { usernameKey })) throw usernameTaken();
        const created = tx.create(User, {
          username: input.username,
          usernameKey,
          passwordHash,
          homeCurrency: input.homeCurrency ?? DEFAULT_CURRENCY,
          createdAt: now,
          updatedAt: now,
        });
        await tx.flush();
        return created;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && !this.deps.allowRegistration)
        throw closedRegistration();
      throw error;
    }
    return { ...(await this.startSignIn(em, user, { address, userAgent })), user: toUserDto(user) };
  }

  /**
   * The attempt is counted before the password hash runs, so parallel guesses cannot all be checked. With two-factor
   * sign-in on, a right password answers a challenge instead of tokens.
   */
  async login(em: EntityManager, input: LoginInput, address: string, userAgent?: string): Promise<LoginResult> {
    const attempt = await this.deps.throttle.begin(this.deps.throttle.passwordScopes(input.username, address), 'login');
    const user = await em.findOne(User, { usernameKey: nameKey(input.username) });
    const ok = await (this.deps.verifyPassword ?? verifyPassword)(
      input.password,
      user?.passwordHash ?? this.dummyPasswordHash,
    );
    if (!user || !ok) {
      attempt.failed();
      throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
    }
    await attempt.succeeded();
    if (user.mfaSecret) {
      return {
        mfaRequired: true,
        mfaToken: this.deps.signMfaToken({
          sub: String(user.id),
          typ: 'mfa',
          username: user.username,
          jti: randomUUID(),
          pwd: passwordFingerprint(user.passwordHash),
        }),
      };
    }
    return { ...(await this.startSignIn(em, user, { address, userAgent })), user: toUserDto(user) };
  }

  /**
   * The code step of a two-factor sign-in: a current code (not one already taken) or an unused recovery code, with
   * the token a right password earned. A wrong code counts like a wrong password. The token completes one sign-in:
   * the sign-in it starts takes the token's id as its primary key, in the transaction that spends the code, so a
   * second use (or the loser of two racing uses) is refused and its code stays unspent.
   */
  async verifyMfa(em: EntityManager, input: MfaVerifyInput, origin: SignInOrigin & { address: string }) {
    const claims = this.mfaClaims(input.mfaToken);
    const throttle = this.deps.throttle;
    const attempt = await throttle.begin(throttle.passwordScopes(claims.username, origin.address), 'login');
    const user = await em.findOne(User, { id: Number(claims.sub) });
    let outcome: AuthResult | 'spent' | 'badCode';
    try {
      outcome =
        user?.mfaSecret && claims.pwd === passwordFingerprint(user.passwordHash)
          ? await em.transactional(async (tx) => {
              if (await tx.count(SignIn, { id: claims.jti })) return 'spent';
              if (!(await this.spendCode(tx, user, input.code))) return 'badCode';
              const fresh = await tx.findOneOrFail(User, { id: user.id }, { refresh: true });
              return { ...(await this.startSignIn(tx, fresh, origin, claims.jti)), user: toUserDto(fresh) };
            })
          : 'spent';
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      outcome = 'spent';
    }
    if (typeof outcome !== 'string') {
      await attempt.succeeded();
      return outcome;
    }
    attempt.failed();
    throw new AppError('UNAUTHORIZED', outcome === 'badCode' ? INVALID_CODE : INVALID_MFA_TOKEN);
  }

  /** The claims of a two-factor challenge token this server signed and that has not expired. */
  private mfaClaims(token: string): MfaTokenClaims {
    let claims: VerifiedClaims;
    try {
      claims = this.deps.verifyAccessToken(token);
    } catch {
      throw new AppError('UNAUTHORIZED', INVALID_MFA_TOKEN);
    }
    if (claims.typ !== 'mfa' || typeof claims.jti !== 'string' || !claims.jti || typeof claims.pwd !== 'string') {
      throw new AppError('UNAUTHORIZED', INVALID_MFA_TOKEN);
    }
    return { sub: claims.sub, typ: 'mfa', username: claims.username, jti: claims.jti, pwd: claims.pwd };
  }

  /**
   * Takes a TOTP code or a recovery code of `user`, once: the stored step or list changes only if nobody changed it
   * since it was read (a conditional update), so of two requests with one code at most one succeeds.
   */
  private async spendCode(em: EntityManager, user: User, code: string): Promise<boolean> {
    if (!user.mfaSecret) return false;
    if (isTotpCode(code)) {
      const step = totpStep(user.mfaSecret, code, this.now());
      if (step === null) return false;
      const taken = await em.nativeUpdate(
        User,
        { id: user.id, $or: [{ mfaLastStep: null }, { mfaLastStep: { $lt: step } }] },
        { mfaLastStep: step },
      );
      return taken === 1;
    }
    const hashes = parseRecoveryHashes(user.mfaRecoveryCodes);
    const hash = recoveryCodeHash(code);
    if (!hashes.includes(hash)) return false;
    const left = JSON.stringify(hashes.filter((stored) => stored !== hash));
    const taken = await em.nativeUpdate(
      User,
      { id: user.id, mfaRecoveryCodes: user.mfaRecoveryCodes ?? null },
      { mfaRecoveryCodes: left },
    );
    return taken === 1;
  }

  /** Checks the current password of a signed-in user (403 when wrong, counted as a failed login). */
  private async provePassword(em: EntityManager, userId: number, password: string, address: string): Promise<User> {
    const user = await em.findOneOrFail(User, { id: userId });
    const throttle = this.deps.throttle;
    const attempt = await throttle.begin(throttle.passwordScopes(user.usernameKey, address), 'login');
    if (!(await (this.deps.verifyPassword ?? verifyPassword)(password, user.passwordHash))) {
      attempt.failed();
      throw new AppError('FORBIDDEN', 'Current password is incorrect');
    }
    await attempt.succeeded();
    return user;
  }

  /** Starts turning two-factor sign-in on: a new secret, kept aside until a code from it confirms it. */
  async setupMfa(em: EntityManager, userId: number, currentPassword: string, origin: RequestOrigin): Promise<MfaSetup> {
    const user = await this.provePassword(em, userId, currentPassword, origin.address);
    if (user.mfaSecret) throw new AppError('CONFLICT', 'Two-factor sign-in is already on: turn it off first');
    const setup = newTotpSecret(user.username);
    user.mfaPendingSecret = setup.secret;
    user.updatedAt = this.now().toISOString();
    await em.flush();
    return setup;
  }

  /** Turns two-factor sign-in on with a code from the secret just set up; answers the recovery codes, once. */
  async enableMfa(em: EntityManager, userId: number, code: string, origin: RequestOrigin): Promise<RecoveryCodes> {
    const user = await em.findOneOrFail(User, { id: userId });
    if (user.mfaSecret) throw new AppError('CONFLICT', 'Two-factor sign-in is already on');
    if (!user.mfaPendingSecret) {
      throw new AppError('CONFLICT', 'Set up two-factor sign-in first (POST /api/auth/mfa/setup)');
    }
    const throttle = this.deps.throttle;
    const attempt = await throttle.begin(throttle.passwordScopes(user.usernameKey, origin.address), 'login');
    const step = totpStep(user.mfaPendingSecret, code, this.now());
    if (step === null) {
      attempt.failed();
      throw new AppError('BAD_REQUEST', 'code: The code does not match: check the time on the device and try again');
    }
    await attempt.succeeded();
    const recovery = newRecoveryCodes();
    user.mfaSecret = user.mfaPendingSecret;
    user.mfaPendingSecret = null;
    user.mfaLastStep = step;
    user.mfaRecoveryCodes = JSON.stringify(recovery.hashes);
    user.updatedAt = this.now().toISOString();
    await em.flush();
    return { recoveryCodes: recovery.codes };
  }

  /** Turns two-factor sign-in off (the current password proves it is the owner). */
  async disableMfa(em: EntityManager, userId: number, currentPassword: string, origin: RequestOrigin): Promise<void> {
    const user = await this.provePassword(em, userId, currentPassword, origin.address);
    user.mfaSecret = null;
    user.mfaPendingSecret = null;
    user.mfaLastStep = null;
    user.mfaRecoveryCodes = null;
    user.updatedAt = this.now().toISOString();
    await em.flush();
  }

  /** The user's live sign-ins, the one making the request marked. */
  async signIns(em: EntityManager, userId: number, current?: string): Promise<SignInDto[]> {
    const since = new Date(this.now().getTime() - this.deps.refreshTokenTtlSeconds * 1000).toISOString();
    const rows = await this.deps.signIns.listLive(em, userId, since);
    return rows.map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      userAgent: row.userAgent ?? null,
      address: row.address ?? null,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt ?? row.createdAt,
      current: row.id === current,
    }));
  }

  /** Ends one of the user's sign-ins (404 for another user's or an ended one). */
  async revokeSignIn(em: EntityManager, userId: number, id: string): Promise<void> {
    if (!(await this.deps.signIns.revokeOwn(em, userId, id, this.now().toISOString()))) {
      throw new AppError('NOT_FOUND', 'Sign-in not found');
    }
  }

  /** Ends every sign-in of the user but the one making the request (all of them over an API token). */
  async revokeOtherSignIns(em: EntityManager, userId: number, current?: string): Promise<{ revoked: number }> {
    return { revoked: await this.deps.signIns.revokeOthers(em, userId, this.now().toISOString(), current) };
  }

  /** Single use: the presented token is spent and a new pair issued to the same sign-in. */
  async refresh(em: EntityManager, refreshToken: string, origin: SignInOrigin = {}): Promise<AuthResult> {
    type Outcome = { result: AuthResult } | { replayed: string } | null;
    const outcome = await em.transactional(async (tx): Promise<Outcome> => {
      const stored = await tx.findOne(RefreshToken, { tokenHash: sha256Hex(refreshToken) }, { populate: ['user'] });
      const now = this.now().toISOString();
      if (!stored || stored.revokedAt || stored.expiresAt <= now) return null;
      if (stored.usedAt) return { replayed: stored.family };
      // Spend it with a conditional update: of concurrent refreshes (even on another process
      // sharing the database) exactly one wins; the others are replays.
      const spent = await tx.nativeUpdate(
        RefreshToken,
        { id: stored.id, usedAt: null, revokedAt: null },
        { usedAt: now },
      );
      if (spent !== 1) return { replayed: stored.family };
      await this.deps.signIns.touch(tx, stored.family, now, origin);
      const pair = await this.issueTokens(tx, stored.user, stored.family);
      return { result: { ...pair, user: toUserDto(stored.user) } };
    });
    if (outcome && 'result' in outcome) return outcome.result;
    if (outcome) {
      // A spent token came back: someone holds a copy. End that whole sign-in, access tokens included.
      await em.transactional((tx) => this.deps.signIns.revoke(tx, outcome.replayed, this.now().toISOString()));
    }
    throw new AppError('UNAUTHORIZED', INVALID_REFRESH);
  }

  /** Ends the refresh token's sign-in: its refresh tokens and its access tokens. Unknown tokens are ignored. */
  async logout(em: EntityManager, refreshToken: string): Promise<void> {
    const stored = await em.findOne(RefreshToken, { tokenHash: sha256Hex(refreshToken) });
    if (!stored) return;
    await em.transactional((tx) => this.deps.signIns.revoke(tx, stored.family, this.now().toISOString()));
  }

  /**
   * Resolves a bearer credential: an access token of a live sign-in, or an API token. Guessing
   * is counted per address: an API token that matches nothing or a forged access token is a
   * failure, and while an address is over its limit its API-token requests answer 429 (a right
   * guess too, so guessing teaches nothing). Signed, unexpired access tokens are never slowed.
   */
  async authenticate(em: EntityManager, bearer: string, address: string): Promise<AuthUser> {
    const throttle = this.deps.throttle;
    if (looksLikeAccessToken(bearer)) {
      let claims: VerifiedClaims;
      try {
        claims = this.deps.verifyAccessToken(bearer);
      } catch (error) {
        if (!isExpiredTokenError(error)) await throttle.fail(throttle.addressScopes(address), 'bearer');
        throw new AppError('UNAUTHORIZED', INVALID_ACCESS);
      }
      const signInId = claims.sid ?? claims.fam;
      if (claims.typ !== 'access' || !signInId) throw new AppError('UNAUTHORIZED', INVALID_ACCESS);
      // The live sign-in is who the request is: its row names its user and is deleted with it
      // (on delete cascade), so no user row is read per request.
      const liveUser = await this.deps.signIns.liveUser(signInId);
      if (liveUser === null || String(liveUser) !== claims.sub) throw new AppError('UNAUTHORIZED', INVALID_ACCESS);
      return { id: liveUser, via: 'session', signInId };
    }
    const user = await em.findOne(User, { apiTokenHash: sha256Hex(bearer) });
    if (!user) {
      await throttle.fail(throttle.addressScopes(address), 'bearer');
      throw new AppError('UNAUTHORIZED', 'Invalid API token');
    }
    await throttle.check(throttle.addressScopes(address), 'bearer');
    return { id: user.id, via: 'apiToken' };
  }

  async me(em: EntityManager, userId: number): Promise<UserDto> {
    return toUserDto(await em.findOneOrFail(User, { id: userId }));
  }

  /**
   * Changes the username, password and/or API token, proven by the current password (a wrong
   * one is a 403 and counts as a failed login). A new password ends every other sign-in at
   * once: their refresh and access tokens stop working (the sign-in making the change stays;
   * over an API token, none does).
   */
  async updateProfile(
    em: EntityManager,
    userId: number,
    changes: ProfileUpdate,
    origin: RequestOrigin,
  ): Promise<UserDto> {
    if (changes.currentPassword === undefined) {
      throw new AppError(
        'BAD_REQUEST',
        'currentPassword: Current password is required to change the username, password or API token',
      );
    }
    const user = await em.findOneOrFail(User, { id: userId });
    const throttle = this.deps.throttle;
    const attempt = await throttle.begin(throttle.passwordScopes(user.usernameKey, origin.address), 'login');
    if (!(await (this.deps.verifyPassword ?? verifyPassword)(changes.currentPassword, user.passwordHash))) {
      attempt.failed();
      throw new AppError('FORBIDDEN', 'Current password is incorrect');
    }
    await attempt.succeeded();

    const now = this.now().toISOString();
    let changed = false;
    if (changes.username !== undefined && changes.username !== user.username) {
      const usernameKey = nameKey(changes.username);
      if (usernameKey !== user.usernameKey && (await em.count(User, { usernameKey }))) {
        throw new AppError('CONFLICT', 'That username is already taken');
      }
      user.username = changes.username;
      user.usernameKey = usernameKey;
      changed = true;
    }
    let passwordChanged = false;
    if (changes.password !== undefined) {
      user.passwordHash = await this.hash(changes.password);
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
      if (passwordChanged) await this.deps.signIns.revokeOthers(tx, userId, now, origin.signInId);
    });
    return toUserDto(user);
  }

  private async startSignIn(
    em: EntityManager,
    user: User,
    origin: SignInOrigin = {},
    id: string = randomUUID(),
  ): Promise<TokenPair> {
    this.deps.signIns.create(em, user.id, id, this.now().toISOString(), origin);
    return this.issueTokens(em, user, id);
  }

  private async issueTokens(em: EntityManager, user: User, signInId: string): Promise<TokenPair> {
    const refreshToken = randomToken();
    const now = this.now();
    em.create(RefreshToken, {
      user: em.getReference(User, user.id),
      tokenHash: sha256Hex(refreshToken),
      family: signInId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.deps.refreshTokenTtlSeconds * 1000).toISOString(),
    });
    await em.flush();
    const accessToken = this.deps.signAccessToken({
      sub: String(user.id),
      typ: 'access',
      username: user.username,
      sid: signInId,
    });
    return { accessToken, refreshToken };
  }
}

/** A short hash of a stored password hash: tells a token which password it proved without carrying the hash. */
function passwordFingerprint(passwordHash: string): string {
  return sha256Hex(passwordHash).slice(0, 16);
}

function usernameTaken(): AppError {
  return new AppError('CONFLICT', 'That username is already taken');
}

function closedRegistration(): AppError {
  return new AppError('FORBIDDEN', 'Registration is closed on this server');
}
