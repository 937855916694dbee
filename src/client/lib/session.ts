import type { TokenPair, UserDto } from '../../shared/schemas/auth';

/**
 * The signed-in session in browser storage: access token, refresh token and the
 * user. A stored token plus user restores the session on load.
 */
const KEYS = { access: 'accessToken', refresh: 'refreshToken', user: 'user' } as const;

export interface StoredSession {
  accessToken: string;
  refreshToken: string | null;
  user: UserDto;
}

export function readSession(): StoredSession | null {
  const accessToken = localStorage.getItem(KEYS.access);
  const userText = localStorage.getItem(KEYS.user);
  if (!accessToken || !userText) return null;
  try {
    const user = JSON.parse(userText) as UserDto;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- localStorage text is untrusted: the cast is checked here
    if (!user || typeof user.username !== 'string') return null;
    return { accessToken, refreshToken: localStorage.getItem(KEYS.refresh), user };
  } catch {
    return null;
  }
}

export function accessToken(): string | null {
  return localStorage.getItem(KEYS.access);
}

export function refreshToken(): string | null {
  return localStorage.getItem(KEYS.refresh);
}

export function storeTokens(tokens: TokenPair): void {
  localStorage.setItem(KEYS.access, tokens.accessToken);
  localStorage.setItem(KEYS.refresh, tokens.refreshToken);
}

export function storeUser(user: UserDto): void {
  localStorage.setItem(KEYS.user, JSON.stringify(user));
}

export function clearSession(): void {
  localStorage.removeItem(KEYS.access);
  localStorage.removeItem(KEYS.refresh);
  localStorage.removeItem(KEYS.user);
}
