import type { EntityManager } from '@mikro-orm/knex';
import type { SavedMapping } from '../../../shared/csv';
import { AppError } from '../../../shared/errors';
import { columnMappingSchema, type ImportProfileDto, type ImportProfileInput } from '../../../shared/schemas/import';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';
import { ImportProfile } from './import-profile.entity';
import { findOwned } from '../../db/find-owned';

/** The user's own account, or a 404 naming the id. */
async function ownAccount(em: EntityManager, userId: number, accountId: number): Promise<Account> {
  return findOwned(em, Account, userId, accountId);
}

function toDto(profile: ImportProfile, accountId: number): ImportProfileDto {
  return {
    accountId,
    mapping: columnMappingSchema.parse(JSON.parse(profile.mapping)),
    columnCount: profile.columnCount,
    headers: JSON.parse(profile.headers) as string[],
    updatedAt: profile.updatedAt,
  };
}

/** The account's saved mapping for the importer, or null. */
export async function savedMappingOf(
  em: EntityManager,
  userId: number,
  accountId: number,
): Promise<SavedMapping | null> {
  const profile = await em.findOne(ImportProfile, { user: userId, account: accountId });
  if (!profile) return null;
  const dto = toDto(profile, accountId);
  return { mapping: dto.mapping, columnCount: dto.columnCount, headers: dto.headers };
}

export async function getImportProfile(
  em: EntityManager,
  userId: number,
  accountId: number,
): Promise<ImportProfileDto> {
  const account = await ownAccount(em, userId, accountId);
  const profile = await em.findOne(ImportProfile, { user: userId, account: account.id });
  if (!profile) throw new AppError('NOT_FOUND', `Account '${account.name}' has no saved import mapping`);
  return toDto(profile, account.id);
}

/** Creates or replaces the account's import profile. */
export async function putImportProfile(
  em: EntityManager,
  userId: number,
  accountId: number,
  input: ImportProfileInput | SavedMapping,
): Promise<ImportProfileDto> {
  const account = await ownAccount(em, userId, accountId);
  let profile = await em.findOne(ImportProfile, { user: userId, account: account.id });
  const fields = {
    mapping: JSON.stringify(input.mapping),
    columnCount: input.columnCount,
    headers: JSON.stringify(input.mapping.header ? input.headers : []),
    updatedAt: new Date().toISOString(),
  };
  if (profile) Object.assign(profile, fields);
  else profile = em.create(ImportProfile, { user: em.getReference(User, userId), account, ...fields });
  await em.flush();
  return toDto(profile, account.id);
}

export async function deleteImportProfile(
  em: EntityManager,
  userId: number,
  accountId: number,
): Promise<{ message: string }> {
  const account = await ownAccount(em, userId, accountId);
  const profile = await em.findOne(ImportProfile, { user: userId, account: account.id });
  if (!profile) throw new AppError('NOT_FOUND', `Account '${account.name}' has no saved import mapping`);
  em.remove(profile);
  await em.flush();
  return { message: `The saved import mapping of '${account.name}' was deleted` };
}
