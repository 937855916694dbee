import { sqlTx } from '../../db/sql';
import type { Orm as MikroORM } from '../../db/database';
import { AppError } from '../../../shared/errors';
import { must } from '../../../shared/must';
import { nameKey } from '../../../shared/names';

/**
 * Failed credential checks, counted per scope within a sliding window:
 * - `login:<username>|<address>`: wrong passwords (at login, or as the current password of a
 *   profile change) for one username from one address;
 * - `address:<address>`: every failed check from one address (logins across usernames, bearer
 *   tokens that match nothing, forged access tokens).
 *
 * An attempt is counted *before* the password hash runs: `begin` reserves a slot in every scope
 * in one atomic step (or refuses with 429 when a scope is full), so parallel attempts cannot
 * all slip past the check. A success gives its own slot back; it never wipes the failures
 * counted before it.
 */
export interface ScopeLimit {
  scope: string;
  max: number;
}

export interface FailureStore {
  /**
   * Atomically: when any scope already holds `max` failures newer than `since`, records nothing
   * and answers the seconds until it accepts one more; otherwise records one failure per scope
   * at `now` and answers their ids.
   */
  reserve: (
    limits: readonly ScopeLimit[],
    now: Date,
    windowMs: number,
  ) => Promise<{ ids: number[] } | { waitSeconds: number }>;
  /** Removes reserved failures again (the check they stood for succeeded). */
  release: (ids: readonly number[]) => Promise<void>;
  /** Seconds until every scope accepts an attempt (0 = now), recording nothing. */
  wait: (limits: readonly ScopeLimit[], now: Date, windowMs: number) => Promise<number>;
}

export interface AuthThrottleOptions {
  /** Failures per username and address. */
  perUser: number;
  /** Failures per address, whatever the usernames or tokens. */
  perAddress: number;
  windowSeconds: number;
  /** Registrations per address per hour. */
  registrationsPerAddress?: number;
  now?: () => Date;
}

export type ThrottleReason = 'login' | 'bearer' | 'register';

/** Registrations are counted per hour, whatever the login window. */
export const REGISTRATION_WINDOW_SECONDS = 3600;

export interface Attempt {
  /** The check succeeded: its slot is given back. */
  succeeded: () => Promise<void>;
  /** The check failed: the slot stays counted (nothing to do; named for readability). */
  failed: () => void;
}

export class AuthThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly options: AuthThrottleOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private get windowMs(): number {
    return this.options.windowSeconds * 1000;
  }

  /** Scopes a password check for `username` from `address` counts against. */
  passwordScopes(username: string, address: string): ScopeLimit[] {
    return [
      { scope: `login:${nameKey(username)}|${address}`, max: this.options.perUser },
      { scope: `address:${address}`, max: this.options.perAddress },
    ];
  }

  /** Scopes a bearer-token check from `address` counts against. */
  addressScopes(address: string): ScopeLimit[] {
    return [{ scope: `address:${address}`, max: this.options.perAddress }];
  }

  /** Scopes a registration from `address` counts against (within REGISTRATION_WINDOW_SECONDS). */
  registrationScopes(address: string): ScopeLimit[] {
    return [{ scope: `register:${address}`, max: this.options.registrationsPerAddress ?? 10 }];
  }

  /** Counts one registration attempt from `address` (kept, whatever its outcome); 429 once the hour's are spent. */
  async registration(address: string): Promise<void> {
    const result = await this.store.reserve(
      this.registrationScopes(address),
      this.now(),
      REGISTRATION_WINDOW_SECONDS * 1000,
    );
    if ('waitSeconds' in result) throw tooMany(result.waitSeconds, 'register');
  }

  /** Reserves a slot in every scope before a check runs; 429 with Retry-After when one is full. */
  async begin(limits: readonly ScopeLimit[], reason: ThrottleReason): Promise<Attempt> {
    const result = await this.store.reserve(limits, this.now(), this.windowMs);
    if ('waitSeconds' in result) throw tooMany(result.waitSeconds, reason);
    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.store.release(result.ids);
      },
      failed: () => {
        settled = true;
      },
    };
  }

  /** Refuses with 429 while a scope is full, recording nothing. */
  async check(limits: readonly ScopeLimit[], reason: ThrottleReason): Promise<void> {
    const wait = await this.store.wait(limits, this.now(), this.windowMs);
    if (wait > 0) throw tooMany(wait, reason);
  }

  /** Counts one failure (or refuses with 429 when a scope is already full). */
  async fail(limits: readonly ScopeLimit[], reason: ThrottleReason): Promise<void> {
    (await this.begin(limits, reason)).failed();
  }
}

function tooMany(waitSeconds: number, reason: ThrottleReason): AppError {
  const what = {
    login: 'failed login attempts',
    bearer: 'failed sign-in attempts from your address',
    register: 'accounts created from your address',
  }[reason];
  return new AppError('TOO_MANY_REQUESTS', `Too many ${what}. Try again in ${formatWait(waitSeconds)}.`, {
    retryAfterSeconds: waitSeconds,
  });
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * The failure counts in the `auth_failure` table. Each reservation is one database transaction
 * (SQLite runs them one at a time; a PostgreSQL store would lock the scopes' rows), so counts
 * hold across requests and, on a shared database, across processes.
 */
export class SqlFailureStore implements FailureStore {
  private reservations = 0;

  /** `keepMs`: rows younger than this are never pruned (the longest window any scope counts in). */
  constructor(
    private readonly orm: MikroORM,
    private readonly keepMs = 0,
  ) {}

  private async blockedFor(
    execute: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
    limits: readonly ScopeLimit[],
    now: Date,
    windowMs: number,
  ): Promise<number> {
    const since = new Date(now.getTime() - windowMs).toISOString();
    let wait = 0;
    for (const { scope, max } of limits) {
      const [counted] = await execute('select count(*) as n from auth_failure where scope = ? and at > ?', [
        scope,
        since,
      ]);
      // A driver may answer count(*) as a number, a bigint or a string.
      const count = Number(must(counted, 'count(*) answers one row').n);
      if (count < max) continue;
      // The scope accepts again once the (count - max + 1) oldest failures have left the window.
      const [row] = await execute(
        'select at from auth_failure where scope = ? and at > ? order by at asc, id asc limit 1 offset ?',
        [scope, since, count - max],
      );
      const { at } = must(row, 'the window holds count > offset failures (counted in this transaction)');
      const freeAt = new Date(String(at)).getTime() + windowMs;
      wait = Math.max(wait, Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)));
    }
    return wait;
  }

  async reserve(
    limits: readonly ScopeLimit[],
    now: Date,
    windowMs: number,
  ): Promise<{ ids: number[] } | { waitSeconds: number }> {
    const em = this.orm.em.fork();
    const prune = ++this.reservations % 200 === 0;
    return em.transactional(async (tx) => {
      const connection = tx.getConnection();
      const context = tx.getTransactionContext<unknown>();
      const execute = (sql: string, params: unknown[]) =>
        connection.execute<Record<string, unknown>[]>(sql, params, 'all', context);
      const db = await sqlTx(tx);
      // Where reservations run side by side (PostgreSQL, also from other processes), each scope's
      // lock, taken in one order, makes count-then-insert atomic per scope.
      for (const scope of [...new Set(limits.map((limit) => limit.scope))].sort()) await db.lockName(scope);
      if (prune) {
        await connection.execute(
          'delete from auth_failure where at <= ?',
          [new Date(now.getTime() - Math.max(windowMs, this.keepMs)).toISOString()],
          'run',
          context,
        );
      }
      const wait = await this.blockedFor(execute, limits, now, windowMs);
      if (wait > 0) return { waitSeconds: wait };
      const ids: number[] = [];
      for (const { scope } of limits) {
        ids.push(await db.insertId('insert into auth_failure (scope, at) values (?, ?)', [scope, now.toISOString()]));
      }
      return { ids };
    });
  }

  async release(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orm.em
      .fork()
      .getConnection()
      .execute(`delete from auth_failure where id in (${ids.map(() => '?').join(', ')})`, [...ids], 'run');
  }

  async wait(limits: readonly ScopeLimit[], now: Date, windowMs: number): Promise<number> {
    const connection = this.orm.em.fork().getConnection();
    return this.blockedFor(
      (sql, params) => connection.execute<Record<string, unknown>[]>(sql, params, 'all'),
      limits,
      now,
      windowMs,
    );
  }
}
