import { EntitySchema } from '@mikro-orm/core';

/**
 * A failed (or still running) credential check: a login, a current password, a bearer token.
 * `scope` is what it counts against: `login:<username>|<address>` or `address:<address>`.
 * Rows older than the window are pruned; keeping them in the database (not memory) lets
 * several server processes share one count.
 */
export class AuthFailure {
  id!: number;
  scope!: string;
  at!: string;
}

export const AuthFailureSchema = new EntitySchema<AuthFailure>({
  class: AuthFailure,
  tableName: 'auth_failure',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    scope: { type: 'string', length: 400 },
    at: { type: 'string', length: 32 },
  },
  indexes: [{ name: 'auth_failure_scope_at_index', properties: ['scope', 'at'] }],
});
