import { EntitySchema } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

/**
 * An account's import profile: the column mapping a person chose for its files, used again
 * automatically for files of the same shape. One per account; deleted with the account.
 */
export class ImportProfile {
  id!: number;
  user!: User;
  account!: Account;
  /** JSON of the ColumnMapping. */
  mapping!: string;
  columnCount!: number;
  /** JSON array of the header cells (empty for a headerless mapping). */
  headers!: string;
  updatedAt!: string;
}

export const ImportProfileSchema = new EntitySchema<ImportProfile>({
  class: ImportProfile,
  tableName: 'import_profile',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    account: { kind: 'm:1', entity: () => Account, deleteRule: 'cascade', unique: true },
    mapping: { type: 'text' },
    columnCount: { type: 'integer' },
    headers: { type: 'text' },
    updatedAt: { type: 'string', length: 32 },
  },
});
