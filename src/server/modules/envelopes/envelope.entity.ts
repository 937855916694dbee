import { EntitySchema } from '@mikro-orm/core';
import { User } from '../users/user.entity';

export class Envelope {
  id!: number;
  user!: User;
  name!: string;
  description?: string | null;
  /** Category names, matched regardless of case. */
  categories!: string[];
  color!: string;
  isActive!: boolean;
  createdAt!: string;
}

export const EnvelopeSchema = new EntitySchema<Envelope>({
  class: Envelope,
  tableName: 'envelope',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    description: { type: 'text', nullable: true },
    categories: { type: 'json' },
    color: { type: 'string', length: 7, default: '#4CAF50' },
    isActive: { type: 'boolean', default: true },
    createdAt: { type: 'string', length: 32 },
  },
});
