import { EntitySchema } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * One sign-in (a login or registration in one browser or script). Its id is the family of the
 * refresh tokens issued to it and the `sid` claim of its access tokens; once revoked (logout,
 * a replayed refresh token, a password change elsewhere) every token of it stops working.
 */
export class SignIn {
  id!: string;
  user!: User;
  createdAt!: string;
  revokedAt?: string | null;
  /** When a token of it was last refreshed (the sign-in list's "last seen"). */
  lastSeenAt?: string | null;
  /** The browser's User-Agent (cut to 256 characters) and client address, as last seen. */
  userAgent?: string | null;
  address?: string | null;
}

export const SignInSchema = new EntitySchema<SignIn>({
  class: SignIn,
  tableName: 'sign_in',
  properties: {
    id: { type: 'string', length: 64, primary: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    createdAt: { type: 'string', length: 32 },
    revokedAt: { type: 'string', length: 32, nullable: true },
    lastSeenAt: { type: 'string', length: 32, nullable: true },
    userAgent: { type: 'string', length: 256, nullable: true },
    address: { type: 'string', length: 64, nullable: true },
  },
});
