import type { UserDto } from '../../../shared/schemas/auth';
import type { User } from './user.entity';

export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    username: user.username,
    apiTokenSet: Boolean(user.apiTokenHash),
    apiTokenCreatedAt: user.apiTokenCreatedAt ?? null,
    homeCurrency: user.homeCurrency,
    homeCurrencyChosen: user.homeCurrencyChosen,
  };
}
