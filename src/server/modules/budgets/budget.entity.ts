import { EntitySchema } from '@mikro-orm/core';
import { User } from '../users/user.entity';

export class Budget {
  id!: number;
  user!: User;
  name!: string;
  startDate!: string;
  endDate!: string;
  /** Integer cents; created with 0. */
  amount!: number;
  createdAt!: string;
}

export const BudgetSchema = new EntitySchema<Budget>({
  class: Budget,
  tableName: 'budget',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    startDate: { type: 'string', length: 10 },
    endDate: { type: 'string', length: 10 },
    amount: { type: 'integer', default: 0 },
    createdAt: { type: 'string', length: 32 },
  },
});
