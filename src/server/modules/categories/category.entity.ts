import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { User } from '../users/user.entity';

export class Category extends EntityBase {
  user!: User;
  name!: string;
  /** Lower-cased name: category names are unique per user regardless of case. */
  nameKey!: string;
}

export const CategorySchema = new EntitySchema<Category, EntityBase>({
  class: Category,
  extends: EntityBaseSchema,
  tableName: 'category',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    name: { type: 'string', length: 255 },
    nameKey: { type: 'string', length: 255 },
  },
  uniques: [{ properties: ['user', 'nameKey'] }],
});
