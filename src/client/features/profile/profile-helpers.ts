import { API_TOKEN_PREFIX } from '../../../shared/tokens';
import { apiTokenSchema, usernameSchema, type ProfileUpdateInput } from '../../../shared/schemas/auth';

/**
 * A strong random API token: the recognisable `btapi_` prefix (so secret scanners can spot a
 * leaked one) and 32 random bytes (256 bits) as base64url, 43 characters.
 */
export function generateApiToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return API_TOKEN_PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replaceAll('=', '');
}

/** Update Profile's fields as typed. */
export interface ProfileForm {
  username: string;
  password: string;
  confirm: string;
  apiToken: string;
  currentPassword: string;
}

/**
 * What Update Profile sends: only the fields that changed, each checked as the server would, and
 * only with the current password (a stolen session alone cannot take the account over).
 */
export function profileChanges(
  form: ProfileForm,
  currentUsername: string | undefined,
): { ok: true; changes: ProfileUpdateInput } | { ok: false; message: string } {
  const changes: ProfileUpdateInput = {};
  const trimmed = form.username.trim();
  if (!trimmed) return { ok: false, message: 'Username is required' };
  if (trimmed !== currentUsername) {
    const checked = usernameSchema.safeParse(trimmed);
    if (!checked.success) return { ok: false, message: checked.error.issues[0]?.message ?? 'Invalid username' };
    changes.username = trimmed;
  }
  if (form.password) {
    if (form.password !== form.confirm) return { ok: false, message: 'Passwords do not match' };
    changes.password = form.password;
  }
  if (form.apiToken) {
    const checked = apiTokenSchema.safeParse(form.apiToken);
    if (!checked.success) return { ok: false, message: checked.error.issues[0]?.message ?? 'Invalid API token' };
    changes.apiToken = form.apiToken;
  }
  if (Object.keys(changes).length === 0) return { ok: false, message: 'No changes to save' };
  if (!form.currentPassword) return { ok: false, message: 'Enter your current password to save changes' };
  return { ok: true, changes };
}
