import type { EntityManager } from '@mikro-orm/knex';
import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import { AppError } from '../../shared/errors';

/** An entity that belongs to one user. */
interface Owned {
  id: number | string;
  user: unknown;
}

/**
 * How a 404 names the kind of thing: from the entity's table name (`line_item` -> `Line item`),
 * which is declared in its schema, unlike a class name that a bundler may rename.
 */
export function entityLabel(em: EntityManager, entity: EntityClass<unknown>): string {
  const table = em.getMetadata().get(entity.name).tableName;
  const words = table.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The signed-in user's own row by id. Another user's row is indistinguishable from a missing
 * one: both are the 404 AppError `<Kind> <id> not found`.
 */
export async function findOwned<T extends Owned>(
  em: EntityManager,
  entity: EntityClass<T>,
  userId: number,
  id: T['id'],
): Promise<T> {
  const found = await em.findOne(entity, { id, user: userId } as FilterQuery<T>);
  if (!found) throw new AppError('NOT_FOUND', `${entityLabel(em, entity)} ${id} not found`);
  return found;
}
