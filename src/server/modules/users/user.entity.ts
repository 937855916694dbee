import { EntitySchema } from '@mikro-orm/core';

export class User {
  id!: number;
  username!: string;
  /** Lower-cased username: usernames are unique regardless of case. */
  usernameKey!: string;
  passwordHash!: string;
  /** SHA-256 of the API token; the token itself is never stored. */
  apiTokenHash?: string | null;
  apiTokenCreatedAt?: string | null;
  createdAt!: string;
  updatedAt!: string;
}

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'user',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    username: { type: 'string', length: 64 },
    usernameKey: { type: 'string', length: 64, unique: true },
    passwordHash: { type: 'string', length: 255 },
    apiTokenHash: { type: 'string', length: 64, nullable: true, unique: true },
    apiTokenCreatedAt: { type: 'string', length: 32, nullable: true },
    createdAt: { type: 'string', length: 32 },
    updatedAt: { type: 'string', length: 32 },
  },
});
