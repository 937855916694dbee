import { API_TOKEN_PREFIX } from '../../../shared/tokens';

/**
 * A strong random API token: the recognisable `btapi_` prefix (so secret scanners can spot a
 * leaked one) and 32 random bytes (256 bits) as base64url, 43 characters.
 */
export function generateApiToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return API_TOKEN_PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
