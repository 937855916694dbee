import { EntitySchema } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

/** One CSV upload. Deleting a batch deletes its transactions. */
export class Batch {
  /** A UUID, shown to users as the Batch ID. */
  id!: string;
  user!: User;
  account?: Account | null;
  uploadDate!: string;
  transactionCount!: number;
  fileName?: string | null;
  /** The date format the upload was read with, e.g. `DD/MM/YYYY`; reused when a later file is ambiguous. */
  dateFormat?: string | null;
}

export const BatchSchema = new EntitySchema<Batch>({
  class: Batch,
  tableName: 'batch',
  properties: {
    id: { type: 'string', length: 36, primary: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    account: { kind: 'm:1', entity: () => Account, nullable: true, deleteRule: 'set null', index: true },
    uploadDate: { type: 'string', length: 32 },
    transactionCount: { type: 'integer', default: 0 },
    fileName: { type: 'string', length: 255, nullable: true },
    dateFormat: { type: 'string', length: 32, nullable: true },
  },
});
