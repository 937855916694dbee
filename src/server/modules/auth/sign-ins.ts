import type { EntityManager } from '@mikro-orm/knex';
import type { Orm as MikroORM } from '../../db/database';
import { RefreshToken } from './refresh-token.entity';
import { SignIn } from './sign-in.entity';

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
  create(em: EntityManager, userId: number, id: string, now: string): void {
    em.create(SignIn, { id, user: userId, createdAt: now, revokedAt: null });
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

  /** Ends every sign-in of the user but `keep` (a password change). Call inside the change's transaction. */
  async revokeOthers(em: EntityManager, userId: number, now: string, keep?: string): Promise<void> {
    const others = keep ? { family: { $ne: keep } } : {};
    await em.nativeUpdate(
      SignIn,
      { user: userId, revokedAt: null, ...(keep ? { id: { $ne: keep } } : {}) },
      { revokedAt: now },
    );
    await em.nativeUpdate(RefreshToken, { user: userId, revokedAt: null, ...others }, { revokedAt: now });
    this.forgetLive((key, entry) => entry.userId === userId && key !== keep);
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
