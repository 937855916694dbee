import { describe, expect, it } from 'vitest';
import {
  dummyPasswordHash,
  hashPassword,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../src/server/modules/auth/crypto';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('hashes at the N it is given, and a hash made at any N verifies', async () => {
    const low = await hashPassword('correct horse', 1024);
    const high = await hashPassword('correct horse', 2 ** 15);
    expect(low).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(high).toMatch(/^scrypt\$32768\$8\$1\$/);
    for (const stored of [low, high]) {
      expect(await verifyPassword('correct horse', stored)).toBe(true);
      expect(await verifyPassword('correct horsE', stored)).toBe(false);
    }
  });

  it('makes the unknown-username hash at the N it is given (16384 by default), and no password matches it', async () => {
    expect(dummyPasswordHash()).toMatch(/^scrypt\$16384\$8\$1\$A{22}\$A{86}$/);
    expect(dummyPasswordHash(1024)).toMatch(/^scrypt\$1024\$8\$1\$A{22}\$A{86}$/);
    expect(await verifyPassword('', dummyPasswordHash(1024))).toBe(false);
    expect(await verifyPassword('correct horse', dummyPasswordHash(1024))).toBe(false);
  });

  it.each(['', 'plain', 'bcrypt$x$y', 'scrypt$16384$8$1$$'])('refuses a malformed stored hash %j', async (stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });

  it('makes 256-bit tokens and hex SHA-256 digests', () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
