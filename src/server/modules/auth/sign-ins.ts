import type { EntityManager } from '@mikro-orm/knex';
import type { Orm as MikroORM } from '../../db/database';
import { RefreshToken } from './refresh-token.entity';
import { SignIn } from './sign-in.entity';

/** Where a sign-in comes from, as the request said. */
export interface SignInOrigin {
  address?: string;
  userAgent?: string;
}

function cut(value: string | undefined, length = 256): string | null {
  return value ? value.slice(0, length) : null;
}

interface Known {
  userId: number;
  live: boolean;
  /** When a live answer was read from the database (revoked answers never change). */
  checkedAt: number;
}

/**
 * Which sign-ins are live. Every request with an access token asks `liveUser(sid)`; the answer
 * comes from a small in-memory cache (a Map lookup), which a revocation in this process updates
 * at once. A live answer is re-read from the database after `liveTtlMs`, so a revocation made
 * by another process sharing the database is seen within that time.
 */
export class SignIns {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly orm: MikroORM,
    private readonly liveTtlMs = 5_000,
    private readonly maxEntries = 50_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Creates the sign-in row in the caller's unit of work (flushed with its first refresh token). */
  create(em: EntityManager, userId: number, id: string, now: string, origin: SignInOrigin = {}): void {
    em.create(SignIn, {
      id,
      user: userId,
      createdAt: now,
      revokedAt: null,
      lastSeenAt: now,
      userAgent: cut(origin.userAgent),
      address: cut(origin.address, 64),
    });
  }

  /** A token of the sign-in was refreshed: when, from where and with what. */
  async touch(em: EntityManager, id: string, now: string, origin: SignInOrigin = {}): Promise<void> {
    await em.nativeUpdate(
      SignIn,
      { id },
      {
        lastSeenAt: now,
        ...(origin.userAgent ? { userAgent: cut(origin.userAgent) } : {}),
        ...(origin.address ? { address: cut(origin.address, 64) } : {}),
      },
    );
  }

  /** The user's sign-ins not ended and seen since `since`, the latest first. */
  async listLive(em: EntityManager, userId: number, since: string): Promise<SignIn[]> {
    const rows = await em.find(SignIn, { user: userId, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
    return rows
      .filter((row) => (row.lastSeenAt ?? row.createdAt) > since)
      .sort((a, b) => (b.lastSeenAt ?? b.createdAt).localeCompare(a.lastSeenAt ?? a.createdAt));
  }

  /** Ends the user's sign-in `id`; false when it is not theirs or already ended. */
  async revokeOwn(em: EntityManager, userId: number, id: string, now: string): Promise<boolean> {
    const live = await em.count(SignIn, { id, user: userId, revokedAt: null });
    if (live === 0) return false;
    await this.revoke(em, id, now);
    return true;
  }

  /** The user of a live sign-in, or null when it is unknown or has ended. */
  async liveUser(id: string): Promise<number | null> {
    const cached = this.known.get(id);
    if (cached && (!cached.live || this.clock() - cached.checkedAt < this.liveTtlMs))
      return cached.live ? cached.userId : null;
    const [row] = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ user_id: number; revoked_at: string | null }[]>(
        'select user_id, revoked_at from sign_in where id = ?',
        [id],
        'all',
      );
    if (!row) return null;
    this.remember(id, { userId: row.user_id, live: row.revoked_at === null, checkedAt: this.clock() });
    return row.revoked_at === null ? row.user_id : null;
  }

  /** Ends one sign-in: its refresh tokens and, at once, its access tokens. */
  async revoke(em: EntityManager, id: string, now: string): Promise<void> {
    await em.nativeUpdate(SignIn, { id, revokedAt: null }, { revokedAt: now });
    await em.nativeUpdate(RefreshToken, { family: id, revokedAt: null }, { revokedAt: now });
    this.forgetLive((key) => key === id);
  }

  /**
   * Ends every sign-in of the user but `keep` (a password change, "sign out everywhere else"). Call inside the
   * change's transaction. Answers how many were live.
   */
  async revokeOthers(em: EntityManager, userId: number, now: string, keep?: string): Promise<number> {
    const others = keep ? { family: { $ne: keep } } : {};
    const ended = await em.nativeUpdate(
      SignIn,
      { user: userId, revokedAt: null, ...(keep ? { id: { $ne: keep } } : {}) },
      { revokedAt: now },
    );
    await em.nativeUpdate(RefreshToken, { user: userId, revokedAt: null, ...others }, { revokedAt: now });
    this.forgetLive((key, entry) => entry.userId === userId && key !== keep);
    return ended;
  }

  /**
   * Drops cached "live" answers so the next check reads the database. (Revocations run inside
   * transactions; dropping rather than caching "revoked" stays right if one rolls back.)
   */
  private forgetLive(matches: (key: string, entry: Known) => boolean): void {
    for (const [key, entry] of this.known) if (matches(key, entry)) this.known.delete(key);
  }

  private remember(id: string, entry: Known): void {
    this.known.delete(id);
    this.known.set(id, entry);
    if (this.known.size > this.maxEntries) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }
}
