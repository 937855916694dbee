import type { EntityManager } from '@mikro-orm/knex';
import type { SettingsDto, SettingsUpdate } from '../../../shared/schemas/transfers';
import { User } from './user.entity';

function toSettingsDto(user: User): SettingsDto {
  return { transferWindowDays: user.transferWindowDays };
}

/** The signed-in user's settings. */
export async function getSettings(em: EntityManager, userId: number): Promise<SettingsDto> {
  return toSettingsDto(await em.findOneOrFail(User, { id: userId }));
}

/** Changes the settings given; the others stay. */
export async function updateSettings(em: EntityManager, userId: number, changes: SettingsUpdate): Promise<SettingsDto> {
  const user = await em.findOneOrFail(User, { id: userId });
  if (changes.transferWindowDays !== undefined) user.transferWindowDays = changes.transferWindowDays;
  await em.flush();
  return toSettingsDto(user);
}
