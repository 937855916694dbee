import type { EntityManager } from '@mikro-orm/knex';
import {
  isReservedCategoryName,
  reservedCategoryMessage,
  reservedCategoryOnTransactionMessage,
} from '../../../shared/categories';
import { AppError } from '../../../shared/errors';
import type { CategoryDto, CreateCategoryInput } from '../../../shared/schemas/categories';
import { User } from '../users/user.entity';
import { Category } from './category.entity';
import { nameKey } from '../../../shared/names';
import { categoryKeyOf } from '../../../shared/envelopes/envelopes';
import { selectRows } from '../../db/sql';

export function toCategoryDto(category: Category): CategoryDto {
  return { id: category.id, name: category.name };
}

export async function listCategories(em: EntityManager, userId: number): Promise<CategoryDto[]> {
  const rows = await em.find(Category, { user: userId }, { orderBy: { nameKey: 'asc', id: 'asc' } });
  return rows.map(toCategoryDto);
}

export async function createCategory(
  em: EntityManager,
  userId: number,
  input: CreateCategoryInput,
): Promise<CategoryDto> {
  const name = input.name.trim();
  if (isReservedCategoryName(name)) throw new AppError('BAD_REQUEST', reservedCategoryMessage(name));
  const existing = await em.findOne(Category, { user: userId, nameKey: nameKey(name) });
  if (existing) throw new AppError('CONFLICT', `Category '${existing.name}' already exists`);
  const category = em.create(Category, {
    user: em.getReference(User, userId),
    name,
    nameKey: nameKey(name),
    createdAt: new Date().toISOString(),
  });
  await em.flush();
  return toCategoryDto(category);
}

/**
 * Finds each named category of the user, creating the missing ones (first spelling
 * wins), and answers their ids by lower-cased name. Runs inside the caller's transaction.
 * The reserved name 'Uncategorized' is never created and has no id: it means no category
 * (an import row in 'Uncategorized' is stored without one).
 */
export async function ensureCategories(
  em: EntityManager,
  userId: number,
  names: Iterable<string>,
): Promise<Map<string, number>> {
  const wanted = new Map<string, string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed && !isReservedCategoryName(trimmed) && !wanted.has(nameKey(trimmed)))
      wanted.set(nameKey(trimmed), trimmed);
  }
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const existing = await em.find(Category, { user: userId, nameKey: { $in: [...wanted.keys()] } });
  for (const category of existing) ids.set(category.nameKey, category.id);
  const created: Category[] = [];
  const now = new Date().toISOString();
  for (const [key, name] of wanted) {
    if (ids.has(key)) continue;
    created.push(em.create(Category, { user: em.getReference(User, userId), name, nameKey: key, createdAt: now }));
  }
  if (created.length > 0) {
    await em.flush();
    for (const category of created) ids.set(category.nameKey, category.id);
  }
  return ids;
}

/**
 * The id of the named category (created when missing), or null for no category. The reserved
 * name is refused (400): a transaction without a category is sent without one.
 */
export async function resolveCategoryId(
  em: EntityManager,
  userId: number,
  name: string | null | undefined,
): Promise<number | null> {
  if (!name || !name.trim()) return null;
  if (isReservedCategoryName(name)) throw new AppError('BAD_REQUEST', reservedCategoryOnTransactionMessage(name));
  const ids = await ensureCategories(em, userId, [name]);
  return ids.get(nameKey(name)) ?? null;
}

/** The user's category keys by category id (a row without a category is 'uncategorized'). */
export async function categoryKeysById(
  em: EntityManager,
  userId: number,
): Promise<(categoryId: number | null) => string> {
  const rows = await selectRows<{ id: number; name_key: string }>(
    em,
    'select c.id, c.name_key from category c where c.user_id = ?',
    [userId],
  );
  const keys = new Map(rows.map((row) => [row.id, categoryKeyOf(row.name_key)]));
  return (categoryId) => (categoryId === null ? categoryKeyOf(null) : (keys.get(categoryId) ?? categoryKeyOf(null)));
}
