import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { User } from '../users/user.entity';

export class Budget extends EntityBase {
  user!: User;
  name!: string;
  startDate!: string;
  endDate!: string;
  /** Integer cents; created with 0. */
  amount!: number;
}

export const BudgetSchema = new EntitySchema<Budget, EntityBase>({
  class: Budget,
  extends: EntityBaseSchema,
  tableName: 'budget',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    startDate: { type: 'string', length: 10 },
    endDate: { type: 'string', length: 10 },
    amount: { type: centsType, default: 0 },
  },
});
