import type { UserDto } from '../../../shared/schemas/auth';
import { parseRecoveryHashes } from '../auth/two-factor';
import type { User } from './user.entity';

export function toUserDto(user: User): UserDto {
  const mfaEnabled = Boolean(user.mfaSecret);
  return {
    id: user.id,
    username: user.username,
    apiTokenSet: Boolean(user.apiTokenHash),
    apiTokenCreatedAt: user.apiTokenCreatedAt ?? null,
    mfaEnabled,
    recoveryCodesLeft: mfaEnabled ? parseRecoveryHashes(user.mfaRecoveryCodes).length : 0,
    homeCurrency: user.homeCurrency,
    homeCurrencyChosen: user.homeCurrencyChosen,
  };
}
