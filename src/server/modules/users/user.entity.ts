import { EntitySchema, type Opt } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { DEFAULT_CURRENCY } from '../../../shared/money/currencies';

export class User extends EntityBase {
  username!: string;
  /** Lower-cased username: usernames are unique regardless of case. */
  usernameKey!: string;
  passwordHash!: string;
  /** SHA-256 of the API token; the token itself is never stored. */
  apiTokenHash?: string | null;
  apiTokenCreatedAt?: string | null;
  updatedAt!: string;
  /** The TOTP secret (base32) while two-factor sign-in is on; null when off. */
  mfaSecret?: string | null;
  /** A secret set up but not yet confirmed with a code (Profile: "Set up two-factor sign-in"). */
  mfaPendingSecret?: string | null;
  /** The last TOTP time step accepted: a code is never taken twice. */
  mfaLastStep?: number | null;
  /** SHA-256 hashes of the unused recovery codes, as a JSON array. */
  mfaRecoveryCodes?: string | null;
  /** Edits of this user's transaction descriptions, counted by a database trigger (the suggestion cache's checksum reads it). */
  descriptionEdits!: number & Opt;
  /** ISO 4217 code figures that combine accounts are converted to; changing it converts again and stores nothing. */
  homeCurrency!: string & Opt;
  /**
   * False for a user who had data before accounts had currencies: their accounts took the default,
   * and their first choice of home currency relabels those accounts instead of converting them.
   */
  homeCurrencyChosen!: boolean & Opt;
  /** Days apart the two sides of a transfer may be dated for import to pair them. */
  transferWindowDays!: number & Opt;
  /** Days the history keeps this user's changes; null: the server's HISTORY_RETENTION_DAYS. */
  historyRetentionDays?: number | null;
  /** Days this user's deleted transactions wait in the trash; null: the server's TRASH_RETENTION_DAYS. */
  trashRetentionDays?: number | null;
}

export const UserSchema = new EntitySchema<User, EntityBase>({
  class: User,
  extends: EntityBaseSchema,
  tableName: 'user',
  properties: {
    username: { type: 'string', length: 64 },
    usernameKey: { type: 'string', length: 64, unique: true },
    passwordHash: { type: 'string', length: 255 },
    apiTokenHash: { type: 'string', length: 64, nullable: true, unique: true },
    apiTokenCreatedAt: { type: 'string', length: 32, nullable: true },
    updatedAt: { type: 'string', length: 32 },
    mfaSecret: { type: 'string', length: 64, nullable: true },
    mfaPendingSecret: { type: 'string', length: 64, nullable: true },
    mfaLastStep: { type: 'integer', nullable: true },
    mfaRecoveryCodes: { type: 'text', nullable: true },
    descriptionEdits: { type: 'integer', default: 0 },
    homeCurrency: { type: 'string', length: 3, default: DEFAULT_CURRENCY },
    homeCurrencyChosen: { type: 'boolean', default: true },
    transferWindowDays: { type: 'integer', default: 5 },
    historyRetentionDays: { type: 'integer', nullable: true },
    trashRetentionDays: { type: 'integer', nullable: true },
  },
});
