import { EntitySchema } from '@mikro-orm/core';
import { User } from '../users/user.entity';

export class Category {
  id!: number;
  user!: User;
  name!: string;
  /** Lower-cased name: category names are unique per user regardless of case. */
  nameKey!: string;
  createdAt!: string;
}

export const CategorySchema = new EntitySchema<Category>({
  class: Category,
  tableName: 'category',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    name: { type: 'string', length: 255 },
    nameKey: { type: 'string', length: 255 },
    createdAt: { type: 'string', length: 32 },
  },
  uniques: [{ properties: ['user', 'nameKey'] }],
});
