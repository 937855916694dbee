import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from './crypto';

/**
 * Time-based one-time passwords (RFC 6238: SHA-1, six digits, 30-second steps, as every authenticator app reads
 * them) and recovery codes. A code is accepted one step early or late (clocks drift), and never twice: the step it
 * stood for is kept, and only a later one is taken.
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Budget Tracker';
export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code copied from paper reads one way. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totp(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended length) and the otpauth:// URL an app scans. */
export function newTotpSecret(username: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totp(secret, username).toString() };
}

/** The time step a six-digit `code` is valid for at `now` (one step either side), or null. */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  const digits = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) return null;
  const delta = totp(secretBase32).validate({ token: digits, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Looks like a TOTP code (digits only) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^[\d\s]+$/.test(code);
}

/** Ten recovery codes as shown (`abcde-fghij`, 50 bits each) and their hashes as stored. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
}

export function parseRecoveryHashes(stored: string | null | undefined): string[] {
  if (!stored) return [];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((hash): hash is string => typeof hash === 'string') : [];
}
