import type { EntityManager } from '@mikro-orm/knex';
import type { UserDto } from '../../../shared/schemas/auth';
import type { HomeCurrencyInput } from '../../../shared/schemas/auth';
import { selectRows } from '../../db/sql';
import { Account } from '../accounts/account.entity';
import { toUserDto } from './user.dto';
import { User } from './user.entity';

/**
 * Sets the currency that figures combining accounts are converted to. Nothing else stored changes:
 * figures are converted when read. The one exception is a user whose accounts predate currencies
 * (homeCurrencyChosen false): their accounts took the default without anyone choosing, so the first
 * choice relabels the accounts still in that default, in the same transaction.
 */
export async function setHomeCurrency(em: EntityManager, userId: number, input: HomeCurrencyInput): Promise<UserDto> {
  return em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: userId });
    if (!user.homeCurrencyChosen) {
      await tx.nativeUpdate(Account, { user: userId, currency: user.homeCurrency }, { currency: input.homeCurrency });
      user.homeCurrencyChosen = true;
    }
    user.homeCurrency = input.homeCurrency;
    user.updatedAt = new Date().toISOString();
    await tx.flush();
    return toUserDto(user);
  });
}

/** The currency the user's combined figures are in, and an amount condition without its own. */
export async function homeCurrencyOf(em: EntityManager, userId: number): Promise<string> {
  const [user] = await selectRows<{ home_currency: string }>(em, 'select home_currency from "user" where id = ?', [
    userId,
  ]);
  return user?.home_currency ?? 'USD';
}
