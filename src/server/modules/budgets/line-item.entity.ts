import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { User } from '../users/user.entity';
import { Budget } from './budget.entity';

export class LineItem extends EntityBase {
  user!: User;
  budget!: Budget;
  name!: string;
  /** Integer cents. */
  amount!: number;
  type!: string;
  /** Category names, matched regardless of case. */
  relatedCategories!: string[];
}

export const LineItemSchema = new EntitySchema<LineItem, EntityBase>({
  class: LineItem,
  extends: EntityBaseSchema,
  tableName: 'line_item',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    budget: { kind: 'm:1', entity: () => Budget, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    amount: { type: centsType },
    type: { type: 'string', length: 16 },
    relatedCategories: { type: 'json' },
  },
});
