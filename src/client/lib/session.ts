import type { AuthResult, TokenPair, UserDto } from '../../shared/schemas/auth';

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

/**
 * The storage entries of a login or registration, as name and value: what signing in stores. The e2e tests start a
 * browser with them (a page already signed in) where signing in is not what they test.
 */
export function sessionEntries(result: AuthResult): { name: string; value: string }[] {
  return [
    { name: KEYS.access, value: result.accessToken },
    { name: KEYS.refresh, value: result.refreshToken },
    { name: KEYS.user, value: JSON.stringify(result.user) },
  ];
}

/** Stores the tokens and user of a login or registration. */
export function storeSession(result: AuthResult): void {
  for (const { name, value } of sessionEntries(result)) localStorage.setItem(name, value);
}

export function clearSession(): void {
  localStorage.removeItem(KEYS.access);
  localStorage.removeItem(KEYS.refresh);
  localStorage.removeItem(KEYS.user);
}
