import { EntitySchema } from '@mikro-orm/core';
import { centsType } from '../../db/cents.type';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { User } from '../users/user.entity';

export class Category extends EntityBase {
  user!: User;
  name!: string;
  /** Lower-cased name: category names are unique per user regardless of case. */
  nameKey!: string;
  /** 'income' or 'expense': the plan counts income categories' activity as money to assign. */
  kind!: string;
  /** Kept out of pickers and the plan; its transactions keep it. */
  hidden!: boolean;
  /** `YYYY-MM` from which overspending rolls into the next month; null: never. */
  rollsOverspendingFrom?: string | null;
  /** 'monthly', 'refill' or 'byDate'; null: no target. */
  targetType?: string | null;
  /** Integer cents. */
  targetAmount?: number | null;
  /** `YYYY-MM-DD` of a 'byDate' target. */
  targetDate?: string | null;
}

export const CategorySchema = new EntitySchema<Category, EntityBase>({
  class: Category,
  extends: EntityBaseSchema,
  tableName: 'category',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    name: { type: 'string', length: 255 },
    nameKey: { type: 'string', length: 255 },
    kind: { type: 'string', length: 8, default: 'expense' },
    hidden: { type: 'boolean', default: false },
    rollsOverspendingFrom: { type: 'string', length: 7, nullable: true },
    targetType: { type: 'string', length: 8, nullable: true },
    targetAmount: { type: centsType, nullable: true },
    targetDate: { type: 'string', length: 10, nullable: true },
  },
  uniques: [{ properties: ['user', 'nameKey'] }],
});
