import type { EntityManager } from '@mikro-orm/knex';
import type { SettingsDto, SettingsUpdate } from '../../../shared/schemas/transfers';
import type { Retention } from '../history/retention';
import { User } from './user.entity';

function toSettingsDto(user: User, server: Retention): SettingsDto {
  return {
    transferWindowDays: user.transferWindowDays,
    historyRetentionDays: user.historyRetentionDays ?? null,
    trashRetentionDays: user.trashRetentionDays ?? null,
    serverHistoryRetentionDays: server.historyDays,
    serverTrashRetentionDays: server.trashDays,
  };
}

/** The signed-in user's settings; `server` is the server's retention. */
export async function getSettings(em: EntityManager, userId: number, server: Retention): Promise<SettingsDto> {
  return toSettingsDto(await em.findOneOrFail(User, { id: userId }), server);
}

/** Changes the settings given; the others stay. */
export async function updateSettings(
  em: EntityManager,
  userId: number,
  changes: SettingsUpdate,
  server: Retention,
): Promise<SettingsDto> {
  const user = await em.findOneOrFail(User, { id: userId });
  if (changes.transferWindowDays !== undefined) user.transferWindowDays = changes.transferWindowDays;
  if (changes.historyRetentionDays !== undefined) user.historyRetentionDays = changes.historyRetentionDays;
  if (changes.trashRetentionDays !== undefined) user.trashRetentionDays = changes.trashRetentionDays;
  await em.flush();
  return toSettingsDto(user, server);
}
