import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';

import type { CandidateStatus, TransferOrigin } from '../../../shared/schemas/transfers';

/**
 * A link between two transactions of one user in two accounts, with opposite amounts. Each side
 * stays a transaction of its own account (its own date, batch and description) and names the link
 * in `transaction.transfer_id`; a link never has other than two sides.
 */
export class Transfer extends EntityBase {
  user!: User;
  origin!: TransferOrigin;
}

export const TransferSchema = new EntitySchema<Transfer, EntityBase>({
  class: Transfer,
  extends: EntityBaseSchema,
  tableName: 'transfer',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    origin: { type: 'string', length: 16 },
  },
});

/**
 * A pair that import found and did not link by itself: two unlinked rows of two accounts with opposite
 * amounts within the user's window. `first` is the side with the lower id, so one pair is one row
 * whichever import found it.
 */
export class TransferCandidate extends EntityBase {
  user!: User;
  first!: Transaction;
  second!: Transaction;
  /** 0-100: how sure the match is. */
  score!: number;
  reason!: string;
  status!: CandidateStatus;
}

export const TransferCandidateSchema = new EntitySchema<TransferCandidate, EntityBase>({
  class: TransferCandidate,
  extends: EntityBaseSchema,
  tableName: 'transfer_candidate',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    // Both sides are indexed: deleting a transaction looks up the pairs it is in.
    first: { kind: 'm:1', entity: () => Transaction, deleteRule: 'cascade', index: false },
    second: { kind: 'm:1', entity: () => Transaction, deleteRule: 'cascade', index: true },
    score: { type: 'integer' },
    reason: { type: 'text' },
    status: { type: 'string', length: 10 },
  },
  uniques: [{ name: 'transfer_candidate_pair_unique', properties: ['first', 'second'] }],
  indexes: [{ name: 'transfer_candidate_user_status_index', properties: ['user', 'status'] }],
});
