import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { User } from '../users/user.entity';

/**
 * A refresh token, stored only as its SHA-256. Tokens are single-use: a refresh
 * marks the old one used and issues a new one in the same family; presenting a
 * used token again revokes the whole family (it has been stolen or replayed).
 */
export class RefreshToken extends EntityBase {
  user!: User;
  tokenHash!: string;
  family!: string;
  expiresAt!: string;
  usedAt?: string | null;
  revokedAt?: string | null;
}

export const RefreshTokenSchema = new EntitySchema<RefreshToken, EntityBase>({
  class: RefreshToken,
  extends: EntityBaseSchema,
  tableName: 'refresh_token',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    family: { type: 'string', length: 64, index: true },
    expiresAt: { type: 'string', length: 32 },
    usedAt: { type: 'string', length: 32, nullable: true },
    revokedAt: { type: 'string', length: 32, nullable: true },
  },
});
