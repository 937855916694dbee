import { EntitySchema, type Opt } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { User } from '../users/user.entity';
import { DEFAULT_CURRENCY } from '../../../shared/money/currencies';

export class Account extends EntityBase {
  user!: User;
  name!: string;
  /** Lower-cased name: account names are unique per user regardless of case. */
  nameKey!: string;
  type!: string;
  /** ISO 4217 code; every amount of the account (and its transactions) is in this currency's minor unit. */
  currency!: string & Opt;
  /**
   * Integer cents: the balance on `openingDate`. The account's balance is this plus all its counted
   * transactions, so imports and edits move it.
   */
  openingBalance!: number;
  /** `YYYY-MM-DD`: where the register lists the opening balance (below every row of that date). */
  openingDate!: string;
  /** Import applies suggestions at or above the confidence threshold (the setting "Apply confident suggestions"). */
  applySuggestions!: boolean;
  /** Its transactions count in the monthly plan (investment accounts are created off it). */
  onBudget!: boolean;
}

export const AccountSchema = new EntitySchema<Account, EntityBase>({
  class: Account,
  extends: EntityBaseSchema,
  tableName: 'account',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    name: { type: 'string', length: 255 },
    nameKey: { type: 'string', length: 255 },
    type: { type: 'string', length: 16 },
    currency: { type: 'string', length: 3, default: DEFAULT_CURRENCY },
    openingBalance: { type: centsType, default: 0 },
    // SQLite can add a NOT NULL column to a table with rows only with a default; every write sets it.
    openingDate: { type: 'string', length: 10, ignoreSchemaChanges: ['default'] },
    applySuggestions: { type: 'boolean', default: true },
    onBudget: { type: 'boolean', default: true },
  },
  uniques: [{ properties: ['user', 'nameKey'] }],
});
