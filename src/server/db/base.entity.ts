import { EntitySchema } from '@mikro-orm/core';

/**
 * What most entities share: an auto-increment integer id and the moment the row was created
 * (ISO-8601 text). An entity class extends `EntityBase` and its schema `extends: EntityBaseSchema`.
 */
export abstract class EntityBase {
  id!: number;
  createdAt!: string;
}

export const EntityBaseSchema = new EntitySchema<EntityBase>({
  name: 'EntityBase',
  abstract: true,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    createdAt: { type: 'string', length: 32 },
  },
});
