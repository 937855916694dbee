import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { User } from '../users/user.entity';

export class Envelope extends EntityBase {
  user!: User;
  name!: string;
  description?: string | null;
  /** Category names, matched regardless of case. */
  categories!: string[];
  color!: string;
  isActive!: boolean;
}

export const EnvelopeSchema = new EntitySchema<Envelope, EntityBase>({
  class: Envelope,
  extends: EntityBaseSchema,
  tableName: 'envelope',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    description: { type: 'text', nullable: true },
    categories: { type: 'json' },
    color: { type: 'string', length: 7, default: '#4CAF50' },
    isActive: { type: 'boolean', default: true },
  },
});
