import type { AuthResult } from '../../shared/schemas/auth';
import { accessToken, clearSession, refreshToken, storeTokens, storeUser } from './session';

/**
 * fetch with the stored bearer token. A request that fails with 401 or 403 (for
 * a tRPC batch: any call in it) triggers one token refresh; concurrent failures
 * wait for that same refresh and then retry once with the new token. When the
 * refresh fails, the stored session is removed and the page reloads to the login
 * screen.
 */
let refreshing: Promise<boolean> | null = null;

const AUTH_PATHS = [
  '/api/auth/login',
  '/api/auth/register',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/trpc/auth.login',
  '/trpc/auth.register',
];
/** A 403 from a profile change means "wrong current password", not an expired session: no refresh, no retry. */
const REAUTH_PATHS = ['/api/auth/profile', '/trpc/auth.updateProfile'];

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function withBearer(init: RequestInit | undefined, token: string | null): RequestInit {
  const headers = new Headers(init?.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  else headers.delete('Authorization');
  return { ...init, headers };
}

async function refreshSession(): Promise<boolean> {
  const token = refreshToken();
  if (!token) return false;
  try {
    const res = await fetch('/api/auth/refresh', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) return false;
    const result = (await res.json()) as AuthResult;
    storeTokens(result);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the refresh answer is untrusted JSON; an older server sends no user
    if (result.user) storeUser(result.user);
    return true;
  } catch {
    return false;
  }
}

/** One refresh at a time; everyone waiting shares its outcome. */
export function refreshOnce(): Promise<boolean> {
  refreshing ??= refreshSession().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function isUnauthorized(res: Response, url: string): Promise<boolean> {
  if (res.status === 401) return true;
  if (res.status === 403) return !REAUTH_PATHS.some((p) => url.includes(p));
  if (res.status !== 207) return false;
  // A tRPC batch with mixed results: look for a call refused for its credentials.
  try {
    const body = (await res.clone().json()) as Array<{ error?: { data?: { httpStatus?: number } } }>;
    return Array.isArray(body) && body.some((item) => item.error?.data?.httpStatus === 401);
  } catch {
    return false;
  }
}

/** Called when the session cannot be renewed. Replaceable in tests. */
export let onSessionExpired = (): void => {
  clearSession();
  window.location.reload();
};

export function setOnSessionExpired(handler: () => void): void {
  onSessionExpired = handler;
}

export async function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = urlOf(input);
  const sentWith = accessToken();
  const res = await fetch(input, withBearer(init, sentWith));
  if (!sentWith || AUTH_PATHS.some((p) => url.includes(p)) || !(await isUnauthorized(res, url))) return res;

  // Another request may already have renewed the token while this one was in flight.
  const renewed = accessToken() !== sentWith || (await refreshOnce());
  if (!renewed) {
    onSessionExpired();
    return res;
  }
  return fetch(input, withBearer(init, accessToken()));
}
