import type { Orm } from '../../db/database';
import { hashPassword, randomToken } from '../auth/crypto';
import { SignIns } from '../auth/sign-ins';
import { nameKey } from '../../../shared/names';
import { User } from './user.entity';

export class UnknownUserError extends Error {
  constructor(username: string) {
    super(`No user named "${username}"`);
    this.name = 'UnknownUserError';
  }
}

/**
 * The operator's answer to a forgotten password: a new random password (144 bits, printed once) replaces the
 * stored hash, and every sign-in of the user ends (a server sharing the database sees it within seconds). With
 * `disableTwoFactor`, two-factor sign-in is turned off too (a lost phone and lost recovery codes).
 */
export async function resetPassword(
  orm: Orm,
  username: string,
  options: { passwordHashCost: number; disableTwoFactor?: boolean; now?: Date },
): Promise<{ username: string; password: string; endedSignIns: number }> {
  const password = randomToken(18);
  const passwordHash = await hashPassword(password, 2 ** options.passwordHashCost);
  const now = (options.now ?? new Date()).toISOString();
  return orm.em.fork().transactional(async (em) => {
    const user = await em.findOne(User, { usernameKey: nameKey(username) });
    if (!user) throw new UnknownUserError(username);
    user.passwordHash = passwordHash;
    user.updatedAt = now;
    if (options.disableTwoFactor) {
      user.mfaSecret = null;
      user.mfaPendingSecret = null;
      user.mfaLastStep = null;
      user.mfaRecoveryCodes = null;
    }
    await em.flush();
    const endedSignIns = await new SignIns(orm).revokeOthers(em, user.id, now);
    return { username: user.username, password, endedSignIns };
  });
}
