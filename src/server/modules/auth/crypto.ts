import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost N is 2^cost. PASSWORD_HASH_COST (config.ts) sets it for new hashes; the default 14 (N = 16384) is for
 * production, lower costs are for test suites. A stored hash names its own N, r and p, so
 * hashes stored at another cost still verify.
 */
export const DEFAULT_PASSWORD_HASH_COST = 14;
export const MIN_PASSWORD_HASH_COST = 10;
export const MAX_PASSWORD_HASH_COST = 20;

const SCRYPT = { N: 2 ** DEFAULT_PASSWORD_HASH_COST, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** scrypt needs 128 * N * r bytes; Node refuses more than 32 MB unless told (N = 2^20 takes 1 GB). */
function maxmem(N: number, r: number): number {
  return 256 * N * r + 1024 * 1024;
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url; N a power of two (2^PASSWORD_HASH_COST). */
export async function hashPassword(password: string, N: number = SCRYPT.N): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scryptAsync(password, salt, SCRYPT.keyLength, {
    N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: maxmem(N, SCRYPT.r),
  });
  return ['scrypt', N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const N = Number(n);
  const key = await scryptAsync(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(N, Number(r)),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash to verify against when the username does not exist, at the N new hashes get, so both paths take as long.
 * No password matches it (its key is zeros).
 */
export function dummyPasswordHash(N: number = SCRYPT.N): string {
  return ['scrypt', N, SCRYPT.r, SCRYPT.p, 'A'.repeat(22), 'A'.repeat(86)].join('$');
}

/** A random opaque token: 32 bytes (256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are high-entropy, so a plain SHA-256 is enough to store them safely. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
