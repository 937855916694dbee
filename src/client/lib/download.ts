import { onSessionExpired, refreshOnce } from './authFetch';
import { accessToken } from './session';

/** Seconds a download link's token must still have: the server reads it when the request arrives. */
const MIN_TOKEN_SECONDS = 30;

/** The `exp` of a JWT (seconds since the epoch), or null when the token does not read as one. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

/** A session access token that is good for at least a few more seconds (refreshed when not), or null. */
async function freshAccessToken(nowMs = Date.now()): Promise<string | null> {
  const token = accessToken();
  if (!token) return null;
  const exp = tokenExpiry(token);
  if (exp !== null && exp * 1000 - nowMs > MIN_TOKEN_SECONDS * 1000) return token;
  if (!(await refreshOnce())) {
    onSessionExpired();
    return null;
  }
  return accessToken();
}

/**
 * Starts a browser download of a signed-in GET route (`/api/transactions/export.csv`, `/api/export`)
 * through a plain link: a link cannot send the Authorization header, so it carries the session's
 * access token as `access_token` (the server takes it on those two routes only, and no Referer is sent).
 * The browser streams the file to disk and names it from the answer's Content-Disposition.
 */
export async function downloadWithSession(path: string): Promise<boolean> {
  const token = await freshAccessToken();
  if (!token) return false;
  const link = document.createElement('a');
  link.href = `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
  link.download = '';
  link.rel = 'noreferrer';
  document.body.append(link);
  link.click();
  link.remove();
  return true;
}
