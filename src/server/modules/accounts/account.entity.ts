import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { User } from '../users/user.entity';

export class Account extends EntityBase {
  user!: User;
  name!: string;
  /** Lower-cased name: account names are unique per user regardless of case. */
  nameKey!: string;
  type!: string;
  /** Integer cents. */
  balance!: number;
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
    balance: { type: centsType, default: 0 },
    applySuggestions: { type: 'boolean', default: true },
    onBudget: { type: 'boolean', default: true },
  },
  uniques: [{ properties: ['user', 'nameKey'] }],
});
